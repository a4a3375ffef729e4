"""The rmcp-exact reading: every rule that makes a decode read a body as rmcp 3.1.4 does.

Theory of operation
-------------------

msgspec's typed decoders read most bodies exactly as rmcp does (serde_json's reading,
then serde's derived ``Deserialize`` on rmcp's types). Where they might not, a twin's
pre-check sends the body here, and the rules below decide; every rmcp-exactness rule
lives in this package, named by the layer of the Rust stack it mirrors:

* :mod:`.serde_json`: serde_json's reading and writing rules (numbers, depth, strings,
  its reasons to reject) and :func:`~.serde_json.tree`, a tree made of msgspec's
  reading of a rewrite.
* :mod:`.serde_json_reader`: serde_json's reading of a whole body, the reference
  (``parse``) and the pure twin's (``read``).
* :mod:`.serde`: serde's derive rules on a read tree (structs, enums in every form,
  numbers), knowing nothing of MCP.
* :mod:`.rmcp_structs`: rmcp's derived structs (declaration orders, typed methods, how
  deep a struct member sits) and :data:`~.rmcp_structs.EXPECTED`, the order of every
  table on the expected type.
* :mod:`.rmcp_types`: where rmcp's unit enums sit, and the type tree of
  ``inputRequests``, as :mod:`.serde` kinds.
* :mod:`.rmcp_positions`: where a repeated member is one of a struct rmcp reads,
  derived from the types, for the twins' pre-checks.
* :mod:`.rmcp_custom`: ``CustomNotification``, what takes any other notification.
* :mod:`.rmcp_result`: a ``ReadResourceResult`` made public (text or blob, ``ttlMs``).
* :mod:`.rmcp_read`: the exact reading itself, :func:`~.rmcp_read.decode_exact`.
* :mod:`.rejection`: the words of a body rmcp rejects.

Control goes down only. A twin reads the body (the pure twin with
:func:`.serde_json_reader.read`, the compiled one in C and :func:`.serde_json.tree`),
then hands the tree down to :func:`~.rmcp_read.decode_exact`, with msgspec's error when
msgspec rejected the body; the rules return the value or raise the rejection. Nothing
here imports either twin, and no module of these rules sits outside this package
(``tests/test_layout.py`` holds both). Encode's plans and checks are encode's rules
(``_plans``, ``_checks``) and live apart.
"""
