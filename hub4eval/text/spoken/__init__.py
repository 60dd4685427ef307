"""§8.2: spoken and written forms of numbers, brought to one canonical form.

Reference transcripts are written (``63``, ``$12,500``, ``13th``, ``6-3``,
``0.45``); recognizer output is spoken (``sixty three``, ``twelve thousand five
hundred dollars``, ``thirteenth``, ``six to three``, ``point four five``). When
the texts differ, both sides go through :func:`spoken_forms` so that the aligner
(§7) and the noisy content comparison (§6) see identical tokens whenever the
recognizer got the words right, and different tokens when it did not
(``fifty eight`` and ``58`` are both ``58``; ``fifty nine`` stays ``59``).

Where it runs
-------------
A post-pass over the tokenizer's output, like :func:`hub4eval.text.glm.apply_glm`,
with the raw text the tokens were cut from::

    tokens = tokenize(text, spans)                 # §3 whiteout, spans kept
    tokens = spoken_forms(tokens, text)            # §8.2 (this module)
    tokens = apply_glm(tokens, glm)                # §8

It needs the raw text because the whiteout has already destroyed what tells a
written number apart (``$12,500`` is the tokens ``12`` ``500``, ``0.45`` is
``0`` ``45``): every token's span points into ``text`` (minus ``offset``), so
the raw whitespace-delimited word around a token is one slice away. The
tokenizer is not changed, the §6 marks it reads from raw tokens (fragment,
parenthesized) are kept, and the same call serves a document
(``spoken_forms(tokens, document.text)``) and a fill content string
(``spoken_forms(tokens, content)``). It must run before the GLM: GLM rules
match words (``two => 2``) and would split number phrases the library has to
see whole. :func:`canonical_words` is the one-call form for a plain string.

Number words are parsed by ``text2num`` (``find_numbers``, Rust, MIT), which
reports the token range of every number it finds; nothing here parses number
words itself. The glue around it handles what the library leaves to the
caller: written digits (currency symbols, thousands separators, leading-point
decimals, ``%``, score hyphens), year readings (``nineteen ninety four`` is two
numbers to the library), scale words after a decimal or a digit string
(``three point five million``, ``$3.5 million``), ``a hundred``, ``point four
five`` without a leading ``zero``, ``second`` only where it is a date, and the
range word ``to`` between two numbers.

Speed: a stretch with no digit and no number word costs one dict look-up per
token; only windows of two tokens around a number are analyzed.

Canonical forms (English)
-------------------------
==========================  =====================================================
cardinals                   digits, no separators: ``48``, ``4250``, ``1000000``
                            (``4,250`` / ``four thousand two hundred fifty`` /
                            ``forty two hundred fifty``; ``a hundred`` -> ``100``)
years                       ``1994`` (``nineteen ninety four``), ``1905``
                            (``nineteen oh five``), ``2005`` (``two thousand
                            five``), ``1990s`` (``nineteen nineties``, ``1990's``)
ordinals                    digits + suffix: ``21st``, ``4th``; ``second`` only
                            after a month (``july second`` -> ``july 2nd``), before
                            ``of <month>``, or as the end of a number after a month
                            (``july twenty second``); a cardinal 1-31 right after a
                            month becomes ordinal (``July 4`` -> ``july 4th``)
scaled amounts              multiplied out: ``3.5 million`` / ``three point five
                            million`` / ``3,500,000`` / ``three-and-a-half-million``
                            -> ``3500000``; digits before scale words:
                            ``4 thousand two hundred`` -> ``4200`` (see
                            :func:`_scaled`)
money                       number then unit, both tokens spanning the written
                            amount: ``$12,500`` -> ``12500`` ``dollars``;
                            ``$3.5 million`` -> ``3500000`` ``dollars``; after a
                            number ``dollar(s)``/``cent(s)``/``pound(s)``/
                            ``euro(s)`` -> plural; ``£`` ``€`` ``¥`` ``¢`` likewise
percent                     ``5%`` / ``5 %`` / ``five per cent`` / ``five-per-cent``
                            -> ``5`` ``percent``
decimals                    ``0.45`` (``.45``, ``point four five``, ``zero point
                            four five``); digits after the point kept as written
scores and ranges           two tokens: ``7-5`` / ``7 to 5`` / ``seven to five`` /
                            ``seven five`` -> ``7`` ``5``; ``two to nothing``,
                            ``two to nil`` and ``two nil`` ->
                            ``2`` ``0``
everything else             untouched (durations keep their words: ``3 hours 2
                            minutes``; ``one`` after ``the``/``this``/``no``/...
                            stays a word; plural scales and ordinals stay words:
                            ``hundreds``, ``three hundredths`` -> ``3``
                            ``hundredths``)
==========================  =====================================================

Spans: a produced token spans the raw words it replaces, first start to last
end (``$12,500`` from ``$`` through the last ``0``; ``twenty one`` both words);
a unit token added for a symbol (``dollars`` for ``$``) spans the same
characters as its number. Flags follow :func:`hub4eval.text.glm._produce`:
``parenthesized`` if any replaced token is, ``optional`` if all are.

``--spoken-forms en|none``
--------------------------
The option value is a language code; ``none`` (or ``None``) returns the tokens
unchanged. The code is passed to ``text2num`` (which parses da, de, en, es,
fr, it, nl, pt) and selects a :class:`Language` record holding the glue words
(months, decimal word, range word, article, currency words, year heads, the
words that keep ``one`` a pronoun). Only ``en`` is defined here. Adding Spanish
or French is adding a record to ``LANGUAGES``: months (``julio``/``juillet``),
decimal word (``coma``/``punto``, ``virgule``), range word (``a``; ``à``),
article before a scale (``un``/``mil`` needs none: ``mil`` alone is 1000),
currency words (``dólares``, ``euros``), ``year_heads`` empty (Spanish and
French read years as cardinals, ``mil novecientos noventa y cuatro``, which
the library parses whole), the written decimal comma (``3,5``) and thousands
point (``12.500``) in the digit pattern, and the ordinal suffix the library
writes (``5ème``, ``3º``) against the written ones (``5e``, ``3.º``), plus
tests with the §8.2 classes in that language.

Modules
-------
``language``  the glue words of each language (:class:`Language`) and the
              per-language word caches
``lexing``    one raw written word to items (``$12,500``, ``6-year-old``)
``glue``      numbers found by the library, and the readings it leaves to the caller
``window``    which tokens are analyzed around a number, and their canonical tokens
``forms``     the public calls
``letters``   abbreviations spelled letter by letter (``N.C.A.A.``, ``p m``), joined
"""

from __future__ import annotations

from hub4eval.text.spoken.forms import canonical_words, spoken_forms, strip_possessive
from hub4eval.text.spoken.language import LANGUAGES, Language
from hub4eval.text.spoken.language import _words as _words  # the per-language caches (tests clear them)
from hub4eval.text.spoken.letters import is_letter, join_letters, letter_runs
from hub4eval.text.spoken.window import MAX_DIGITS, number_start, number_windows

__all__ = [
    "LANGUAGES",
    "MAX_DIGITS",
    "Language",
    "canonical_words",
    "is_letter",
    "join_letters",
    "letter_runs",
    "number_start",
    "number_windows",
    "spoken_forms",
    "strip_possessive",
]
