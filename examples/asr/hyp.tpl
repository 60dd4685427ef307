; Hypothesis extracted from raw ASR output (asr_unsegmented.sgml, no documents):
; offsets count from the start of that file.
<TEMPLATE-asr1-1> :=
    EVENT: <SPORTS_EVENT-asr1-1>

<SPORTS_EVENT-asr1-1> :=
    WINNER: "brazil" ##14#20#
    LOSER: "chile" ##26#31#
    SCORE: "two nil" ##32#39#
    LOCATION: "rio the janeiro" ##43#58#
    DATE: "wednesday" ##62#71#
    SCORER: "glen bunting" ##81#93#

<TEMPLATE-asr2-1> :=
    EVENT: <SPORTS_EVENT-asr2-1>
           <SPORTS_EVENT-asr2-2>

<SPORTS_EVENT-asr2-1> :=
    WINNER: "martina hinges" ##145#159#
    LOSER: "conchita martinez" ##169#186#
    SCORE: "six three six three" ##187#206#

<SPORTS_EVENT-asr2-2> :=
    WINNER: "melbourne" ##219#228#
