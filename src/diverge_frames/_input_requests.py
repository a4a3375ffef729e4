"""The typed ``inputRequests`` of rmcp 3.1.4's ``notifications/tasks``.

Public structs, re-exported by :mod:`diverge_frames.types` (import them from there).

rmcp types each value of ``DetailedTask.input_requests`` as an ``InputRequest``
(``rmcp::model::mrtr``): a ``sampling/createMessage``, ``elicitation/create`` or
``roots/list`` request. The structs here hold each request as rmcp writes it back: the
envelope (``method``; ``jsonrpc`` and ``id`` members are dropped, as rmcp drops them)
and its ``params``, typed down to the members MCP names; content blocks, tools and
elicitation schemas are kept as plain values, already in the form rmcp writes (unknown
members dropped, enums as strings, ``f32`` / ``f64`` numbers as floats).

Conventions as in :mod:`diverge_frames.types`: wire names are MCP's, attributes
snake_case, ``None`` members are not written, fields are declared in wire-name order
(rmcp writes these objects sorted). Decoding checks every member as rmcp does
(:mod:`diverge_frames._exact.rmcp_types`): a request rmcp cannot read makes the whole
notification a ``CustomNotification``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from msgspec import Meta, Struct, field

#: rmcp ``u32``.
U32 = Annotated[int, Meta(ge=0, le=2**32 - 1)]
#: MCP ``Role``; rmcp ``Role``.
Role = Literal["user", "assistant"]
#: MCP ``CreateMessageRequest.params.includeContext``; rmcp ``ContextInclusion``.
ContextInclusion = Literal["allServers", "none", "thisServer"]
#: MCP ``ToolChoice.mode`` (SEP-1577); rmcp ``ToolChoiceMode``.
ToolChoiceMode = Literal["auto", "required", "none"]
#: MCP ``Icon.theme``; rmcp ``IconTheme`` (inside tools and resource links).
IconTheme = Literal["light", "dark"]
#: MCP ``StringSchema.format``; rmcp ``StringFormat`` (inside elicitation schemas).
StringFormat = Literal["email", "uri", "date", "date-time"]
#: MCP ``ElicitRequestParams.mode`` (spec 2025-11-25): rmcp's ``ElicitRequestParams``
#: variants ``FormElicitationParams`` and ``UrlElicitationParams``.
ElicitationMode = Literal["form", "url"]

_Meta = dict[str, Any] | None


class _Params(Struct, omit_defaults=True, rename="camel", kw_only=True):
    """Base of the params structs: camelCase names, ``None`` members not written."""


class RequestParams(_Params, kw_only=True):
    """MCP ``RequestParams`` with only ``_meta``.

    The params of rmcp's ``RequestNoParam`` requests (``roots/list``), every other
    member dropped.
    """

    meta: _Meta = field(default=None, name="_meta")


class ModelHint(_Params, kw_only=True):
    """MCP ``ModelHint``; rmcp ``ModelHint``."""

    name: str | None = None


class ModelPreferences(_Params, kw_only=True):
    """MCP ``ModelPreferences``; rmcp ``ModelPreferences``.

    The priorities are rmcp ``f32``: the value read is rounded to single precision and
    held as that value (``0.3`` -> ``0.30000001192092896``), as rmcp writes it.
    """

    cost_priority: float | None = None
    hints: list[ModelHint] | None = None
    intelligence_priority: float | None = None
    speed_priority: float | None = None


class ToolChoice(_Params, kw_only=True):
    """MCP ``ToolChoice`` (SEP-1577); rmcp ``ToolChoice``."""

    mode: ToolChoiceMode | None = None


class SamplingMessage(_Params, kw_only=True):
    """MCP ``SamplingMessage``; rmcp ``SamplingMessage``.

    ``content`` is one content block or a list of them (rmcp ``SamplingContent``), each a
    plain dict as rmcp writes it: ``{"type": "text", "text": ...}``, ``"image"`` /
    ``"audio"`` (``data``, ``mimeType``), ``"tool_use"`` (``id``, ``name``, ``input``),
    ``"tool_result"`` (``toolUseId``, ``content``, ...), with ``annotations`` and
    ``_meta`` where MCP has them.
    """

    meta: _Meta = field(default=None, name="_meta")
    content: dict[str, Any] | list[dict[str, Any]]
    role: Role


class CreateMessageRequestParams(_Params, kw_only=True):
    """MCP ``CreateMessageRequest.params``; rmcp ``CreateMessageRequestParams``.

    ``max_tokens`` is a ``u32``; ``temperature`` an rmcp ``f32`` (``1`` -> ``1.0``,
    ``0.7`` -> ``0.699999988079071``; a value past the ``f32`` range is ``inf``, which
    is written ``null``, as rmcp writes it). ``tools`` are plain dicts (MCP ``Tool``:
    ``name``, ``inputSchema``, ...), ``metadata`` is free-form.
    """

    meta: _Meta = field(default=None, name="_meta")
    include_context: ContextInclusion | None = None
    max_tokens: U32
    messages: list[SamplingMessage]
    metadata: Any = None
    model_preferences: ModelPreferences | None = None
    stop_sequences: list[str] | None = None
    system_prompt: str | None = None
    temperature: float | None = None
    tool_choice: ToolChoice | None = None
    tools: list[dict[str, Any]] | None = None


class ElicitRequestParams(_Params, kw_only=True):
    """MCP ``ElicitRequestParams`` (spec 2025-11-25); rmcp ``ElicitRequestParams``.

    ``mode`` picks the variant: ``"form"`` (rmcp ``FormElicitationParams``:
    ``requested_schema``, an MCP elicitation schema as a plain dict) or ``"url"``
    (``UrlElicitationParams``: ``url`` and ``elicitation_id``). The members of the other
    variant are dropped, as rmcp drops them; params without a ``mode`` (spec 2025-06-18)
    are a form, written with ``"mode": "form"``. Raises ValueError when the variant's
    members are missing (``mode`` is required here: it is always written).
    """

    meta: _Meta = field(default=None, name="_meta")
    elicitation_id: str | None = None
    message: str
    mode: ElicitationMode
    requested_schema: dict[str, Any] | None = None
    url: str | None = None

    def __post_init__(self) -> None:
        if self.mode == "form":
            if self.requested_schema is None:
                raise ValueError("a form elicitation is missing `requestedSchema`")
            self.url = self.elicitation_id = None
        else:
            if self.url is None or self.elicitation_id is None:
                raise ValueError("a url elicitation is missing `url` or `elicitationId`")
            self.requested_schema = None


class _Request(Struct, omit_defaults=True, rename="camel", kw_only=True, tag_field="method"):
    """A request inside ``inputRequests``; its ``method`` is its tag."""

    @property
    def method(self) -> str:
        """The JSON-RPC ``method`` of this request."""
        return self.__struct_config__.tag  # type: ignore[return-value]


class CreateMessageRequest(_Request, kw_only=True, tag="sampling/createMessage"):
    """MCP ``CreateMessageRequest``; rmcp ``CreateMessageRequest``."""

    params: CreateMessageRequestParams


class ElicitRequest(_Request, kw_only=True, tag="elicitation/create"):
    """MCP ``ElicitRequest``; rmcp ``ElicitRequest``."""

    params: ElicitRequestParams


class ListRootsRequest(_Request, kw_only=True, tag="roots/list"):
    """MCP ``ListRootsRequest``.

    Rmcp ``ListRootsRequest`` (``RequestNoParam``): ``params`` keeps only ``_meta`` and
    is written only when ``_meta`` is present.
    """

    params: RequestParams | None = None

    def __post_init__(self) -> None:
        if self.params is not None and self.params.meta is None:
            self.params = None


#: rmcp ``InputRequest`` (SEP-2322): a server-to-client request a task waits on,
#: discriminated by ``method``.
InputRequest = CreateMessageRequest | ElicitRequest | ListRootsRequest
