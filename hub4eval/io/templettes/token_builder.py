"""The Transformer of the token-level grammar: it explains a file the usual reading rejected.

:class:`TokenBuilder` runs inside Lark's LALR parser of the token-level grammar
(rule ``tokens``), which reads a rejected file again, piece by piece, so that
its first problem, syntax or check, is the one reported.  Its checks are those
of :class:`~hub4eval.io.templettes.checks.Checks`, which the
:class:`~hub4eval.io.templettes.builders.InstanceBuilder` runs in the same
order, so that warnings come out the same.  Imported only when such a file is
read: it brings Lark.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lark import Transformer

from hub4eval.io.templettes.checks import Checks
from hub4eval.model import Extent, Fill, FillAlternative, Instance, PointerFill, Slot, TextFill

if TYPE_CHECKING:
    from hub4eval.io.templettes.builders import Token  # a token with its position always set
else:
    from lark import Token


class TokenBuilder(Checks, Transformer[Any, Any]):
    """The Transformer of the token-level grammar (rule ``tokens``), run only
    to explain a file the instance-level parser rejected.  Its checks run as the
    parser reduces each piece, so the first problem it meets in the file,
    syntax or check, is the one reported.
    """

    def __init__(self) -> None:
        Transformer.__init__(self, visit_tokens=False)
        Checks.__init__(self)

    def tokens(self, instances: list[Instance]) -> tuple[Instance, ...]:
        return tuple(instances)

    def t_instance(self, children: list[Any]) -> Instance:
        header: Token = children[0]
        return self._instance(str(header).rsplit(":=", 1)[0], children[1:], header.line, header.column)

    def _slot_head(self, children: list[Any]) -> tuple[Token, str, bool, list[Any]]:
        name_token: Token = children[0]
        name = str(name_token).rstrip(":").strip()
        rest = children[1:]
        optional = False
        if rest and isinstance(rest[0], Token) and rest[0].type == "OPTIONAL_MARK":
            optional = self._optional(name, rest[0].line, rest[0].column)
            rest = rest[1:]
        return name_token, name, optional, rest

    def t_empty_slot(self, children: list[Any]) -> Slot:
        token, name, optional, _ = self._slot_head(children)
        return Slot(name, (), optional=optional, line=token.line, column=token.column)

    def t_slot(self, children: list[Any]) -> Slot:
        token, name, optional, rest = self._slot_head(children)
        alternatives: list[FillAlternative] = []
        for item in rest:
            if isinstance(item, Token):  # SLASH
                self._no_alternatives(name, item.line, item.column)
                continue
            alternatives.append(item)
        return Slot(
            name,
            tuple(alternatives),
            optional=optional,
            line=token.line,
            column=token.column,
        )

    def t_alternative(self, fills: list[Fill]) -> FillAlternative:
        return FillAlternative(tuple(fills), line=fills[0].line)

    def t_fill_line(self, children: list[Fill]) -> Fill:
        return children[0]

    def t_pointer_fill(self, children: list[Token]) -> PointerFill:
        token = children[0]
        return self._pointer_fill(str(token), token.line, token.column)

    def t_extent_part(self, children: list[Token]) -> tuple[Token, tuple[Extent, ...]]:
        opener = children[0]
        return opener, self._extents(str(opener), opener.line, opener.column)

    def t_text_fill(self, children: list[Any]) -> TextFill:
        token: Token = children[0]
        opener, extents = children[1] if len(children) > 1 else (None, ())
        quoted = token.type == "QUOTED"
        raw = str(token)[1:-1] if quoted else str(token).rstrip()
        return self._text_fill(
            raw,
            quoted,
            token.line,
            token.column,
            extents,
            opener.column if opener else 0,
        )
