"""Discord's documented limits on what a bot sends, as checks that return the list of problems found.

Sources: Discord developer docs, "Message Resource" (content 2,000), "Embed Limits" (title 256,
description 4,096, 25 fields, field name 256 / value 1,024, footer 2,048, author 256, 6,000 total,
10 embeds), "Component Reference" (5 action rows of 5 buttons, a select alone in its row, custom_id
100, button label 80, 25 select options; components v2: 40 components, 4,000 characters of text),
"Receiving and Responding" (modal title 45, 5 components, autocomplete 25 choices of 100 characters),
"Application Commands" (name 1-32 lowercase, description 1-100, 25 options, 25 choices).
Every problem is a (kind, detail) pair; kinds are the VIOLATION_KINDS below.
"""

from __future__ import annotations

import re
from typing import Any

from .model import COMPONENTS_V2, iter_components

VIOLATION_KINDS = (
    "content_too_long",
    "empty_message",
    "embed_limit",
    "component_limit",
    "custom_id_too_long",
    "duplicate_custom_id",
    "modal_limit",
    "autocomplete_limit",
    "command_invalid",
    "ack_timeout",
    "late_ack",
    "double_ack",
    "bad_response_type",
    "followup_before_ack",
    "unknown_route",
    "unknown_channel",
    "unknown_interaction",
)

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
EMBED_FIELD_NAME = 256
EMBED_FIELD_VALUE = 1024
EMBED_FOOTER = 2048
EMBED_AUTHOR = 256
MAX_ROWS = 5
MAX_ROW_WIDTH = 5
MAX_CUSTOM_ID = 100
MAX_BUTTON_LABEL = 80
MAX_SELECT_OPTIONS = 25
MAX_V2_COMPONENTS = 40
MAX_V2_TEXT = 4000
MAX_MODAL_TITLE = 45
MAX_MODAL_COMPONENTS = 5
MAX_CHOICES = 25
MAX_CHOICE_NAME = 100

Problem = tuple[str, str]

_COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")
_SELECT_TYPES = {3, 5, 6, 7, 8}


def _len(value: Any) -> int:
    return len(value) if isinstance(value, str) else 0


def check_embeds(embeds: list[dict[str, Any]]) -> list[Problem]:
    """Problems with a list of embed dicts (limits per embed and 6,000 characters over all of them)."""
    problems: list[Problem] = []
    if len(embeds) > MAX_EMBEDS:
        problems.append(("embed_limit", f"{len(embeds)} embeds > {MAX_EMBEDS}"))
    total = 0
    for i, embed in enumerate(embeds):
        title, description = _len(embed.get("title")), _len(embed.get("description"))
        footer = _len((embed.get("footer") or {}).get("text"))
        author = _len((embed.get("author") or {}).get("name"))
        fields = embed.get("fields") or []
        total += title + description + footer + author
        for label, size, limit in (
            ("title", title, EMBED_TITLE),
            ("description", description, EMBED_DESCRIPTION),
            ("footer.text", footer, EMBED_FOOTER),
            ("author.name", author, EMBED_AUTHOR),
        ):
            if size > limit:
                problems.append(("embed_limit", f"embeds[{i}].{label} has {size} characters > {limit}"))
        if len(fields) > EMBED_FIELDS:
            problems.append(("embed_limit", f"embeds[{i}] has {len(fields)} fields > {EMBED_FIELDS}"))
        for j, f in enumerate(fields):
            name, value = _len(f.get("name")), _len(f.get("value"))
            total += name + value
            if not name or not value:
                problems.append(("embed_limit", f"embeds[{i}].fields[{j}] has an empty name or value"))
            if name > EMBED_FIELD_NAME:
                problems.append(("embed_limit", f"embeds[{i}].fields[{j}].name has {name} characters"))
            if value > EMBED_FIELD_VALUE:
                problems.append(("embed_limit", f"embeds[{i}].fields[{j}].value has {value} characters"))
    if total > MAX_EMBED_TOTAL:
        problems.append(("embed_limit", f"embeds total {total} characters > {MAX_EMBED_TOTAL}"))
    return problems


def _check_custom_ids(components: list[dict[str, Any]]) -> list[Problem]:
    problems: list[Problem] = []
    seen: set[str] = set()
    for c in components:
        custom_id = c.get("custom_id")
        if custom_id is None:
            continue
        if len(custom_id) > MAX_CUSTOM_ID:
            problems.append(("custom_id_too_long", f"custom_id of {len(custom_id)} characters: {custom_id[:40]!r}..."))
        if custom_id in seen:
            problems.append(("duplicate_custom_id", f"custom_id {custom_id!r} used twice in one message"))
        seen.add(custom_id)
    return problems


def _check_interactive(c: dict[str, Any]) -> list[Problem]:
    problems: list[Problem] = []
    if c.get("type") == 2:
        if _len(c.get("label")) > MAX_BUTTON_LABEL:
            problems.append(("component_limit", f"button label of {_len(c.get('label'))} characters > 80"))
        if c.get("style") not in (5, 6) and not c.get("custom_id"):
            problems.append(("component_limit", "button without custom_id"))
    if c.get("type") == 3 and len(c.get("options") or []) > MAX_SELECT_OPTIONS:
        problems.append(("component_limit", f"select with {len(c['options'])} options > {MAX_SELECT_OPTIONS}"))
    return problems


def check_components(components: list[dict[str, Any]], flags: int = 0) -> list[Problem]:
    """Problems with a message's components: 5 rows of 5 (or the v2 limits when flag 1<<15 is set)."""
    problems: list[Problem] = []
    everything = iter_components(components)
    if flags & COMPONENTS_V2:
        if len(everything) > MAX_V2_COMPONENTS:
            problems.append(("component_limit", f"{len(everything)} components > {MAX_V2_COMPONENTS}"))
        text = sum(_len(c.get("content")) for c in everything if c.get("type") == 10)
        if text > MAX_V2_TEXT:
            problems.append(("component_limit", f"{text} characters of text display > {MAX_V2_TEXT}"))
    else:
        if len(components) > MAX_ROWS:
            problems.append(("component_limit", f"{len(components)} action rows > {MAX_ROWS}"))
        for i, row in enumerate(components):
            if row.get("type") != 1:
                problems.append(("component_limit", f"components[{i}] is type {row.get('type')}, not an action row"))
                continue
            children = row.get("components") or []
            if not children:
                problems.append(("component_limit", f"action row {i} is empty"))
            if len(children) > MAX_ROW_WIDTH:
                problems.append(("component_limit", f"action row {i} has {len(children)} components > 5"))
            if any(ch.get("type") in _SELECT_TYPES for ch in children) and len(children) > 1:
                problems.append(("component_limit", f"action row {i} has a select menu and other components"))
    for c in everything:
        problems.extend(_check_interactive(c))
    problems.extend(_check_custom_ids(everything))
    return problems


def check_message(data: dict[str, Any], *, creating: bool, has_files: bool = False) -> list[Problem]:
    """Problems with a message body (create or edit; on edit only present keys are checked)."""
    problems: list[Problem] = []
    flags = int(data.get("flags") or 0)
    content = data.get("content")
    if isinstance(content, str) and len(content) > MAX_CONTENT:
        problems.append(("content_too_long", f"content has {len(content)} characters > {MAX_CONTENT}"))
    embeds = data.get("embeds")
    if embeds is None and data.get("embed") is not None:
        embeds = [data["embed"]]
    if embeds:
        problems.extend(check_embeds(embeds))
    components = data.get("components")
    if components:
        problems.extend(check_components(components, flags))
    if creating and not (content or embeds or components or has_files or data.get("sticker_ids") or data.get("poll")):
        problems.append(("empty_message", "message with no content, embed, component, file or poll"))
    if flags & COMPONENTS_V2 and (content or embeds):
        problems.append(("component_limit", "content or embeds set on a components v2 message"))
    return problems


def check_modal(data: dict[str, Any]) -> list[Problem]:
    """Problems with a modal (interaction callback type 9)."""
    problems: list[Problem] = []
    title = data.get("title") or ""
    if not 1 <= len(title) <= MAX_MODAL_TITLE:
        problems.append(("modal_limit", f"modal title of {len(title)} characters (1..45)"))
    custom_id = data.get("custom_id") or ""
    if not custom_id:
        problems.append(("modal_limit", "modal without custom_id"))
    elif len(custom_id) > MAX_CUSTOM_ID:
        problems.append(("custom_id_too_long", f"modal custom_id of {len(custom_id)} characters"))
    top = data.get("components") or []
    if not 1 <= len(top) <= MAX_MODAL_COMPONENTS:
        problems.append(("modal_limit", f"modal with {len(top)} top-level components (1..5)"))
    for c in iter_components(top):
        if c.get("type") == 4:
            if _len(c.get("label")) > MAX_MODAL_TITLE:
                problems.append(("modal_limit", f"text input label of {_len(c.get('label'))} characters > 45"))
            max_length = c.get("max_length")
            if max_length is not None and not 1 <= max_length <= 4000:
                problems.append(("modal_limit", f"text input max_length {max_length} outside 1..4000"))
    problems.extend(_check_custom_ids(iter_components(top)))
    return problems


def check_choices(data: dict[str, Any]) -> list[Problem]:
    """Problems with an autocomplete result (callback type 8)."""
    choices = data.get("choices")
    if not isinstance(choices, list):
        return [("autocomplete_limit", "autocomplete result without a choices list")]
    problems: list[Problem] = []
    if len(choices) > MAX_CHOICES:
        problems.append(("autocomplete_limit", f"{len(choices)} choices > {MAX_CHOICES}"))
    for choice in choices:
        name = choice.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= MAX_CHOICE_NAME:
            problems.append(("autocomplete_limit", f"choice name {name!r} not 1..100 characters"))
        if isinstance(choice.get("value"), str) and len(choice["value"]) > MAX_CHOICE_NAME:
            problems.append(("autocomplete_limit", f"choice value of {len(choice['value'])} characters > 100"))
    return problems


def _check_options(options: list[dict[str, Any]], where: str) -> list[Problem]:
    problems: list[Problem] = []
    if len(options) > 25:
        problems.append(("command_invalid", f"{where} has {len(options)} options > 25"))
    seen_optional = False
    for opt in options:
        name = opt.get("name", "")
        here = f"{where} {name}"
        if not _COMMAND_NAME.match(name) or name != name.lower():
            problems.append(("command_invalid", f"option name {name!r} is not 1-32 lowercase characters"))
        if not 1 <= len(opt.get("description") or "") <= 100:
            problems.append(("command_invalid", f"{here}: description must be 1-100 characters"))
        if opt.get("type") in (1, 2):
            problems.extend(_check_options(opt.get("options") or [], here))
            continue
        if len(opt.get("choices") or []) > MAX_CHOICES:
            problems.append(("command_invalid", f"{here}: more than 25 choices"))
        if opt.get("choices") and opt.get("autocomplete"):
            problems.append(("command_invalid", f"{here}: choices and autocomplete together"))
        if opt.get("required"):
            if seen_optional:
                problems.append(("command_invalid", f"{here}: required option after an optional one"))
        else:
            seen_optional = True
    return problems


def check_commands(commands: list[dict[str, Any]]) -> list[Problem]:
    """Problems with a bulk command overwrite payload (names, descriptions, options, duplicates)."""
    problems: list[Problem] = []
    seen: set[tuple[str, int]] = set()
    for cmd in commands:
        name, kind = cmd.get("name", ""), int(cmd.get("type", 1))
        if (name, kind) in seen:
            problems.append(("command_invalid", f"command {name!r} defined twice"))
        seen.add((name, kind))
        if kind == 1:
            if not _COMMAND_NAME.match(name) or name != name.lower():
                problems.append(("command_invalid", f"command name {name!r} is not 1-32 lowercase characters"))
            if not 1 <= len(cmd.get("description") or "") <= 100:
                problems.append(("command_invalid", f"/{name}: description must be 1-100 characters"))
            problems.extend(_check_options(cmd.get("options") or [], f"/{name}"))
    return problems
