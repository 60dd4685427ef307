; The hypothesis of hyp.tpl as an extractor on raw ASR output writes it: it does
; not know where stories begin, so every instance is under one DOCID (asr).
; Offsets count from the start of asr_unsegmented.sgml.
<TEMPLATE-asr-1> :=
    EVENT: <SPORTS_EVENT-asr-1>

<SPORTS_EVENT-asr-1> :=
    WINNER: "brazil" ##14#20#
    LOSER: "chile" ##26#31#
    SCORE: "two nil" ##32#39#
    LOCATION: "rio the janeiro" ##43#58#
    DATE: "wednesday" ##62#71#
    SCORER: "glen bunting" ##81#93#

<TEMPLATE-asr-2> :=
    EVENT: <SPORTS_EVENT-asr-2>
           <SPORTS_EVENT-asr-3>

<SPORTS_EVENT-asr-2> :=
    WINNER: "martina hinges" ##145#159#
    LOSER: "conchita martinez" ##169#186#
    SCORE: "six three six three" ##187#206#

<SPORTS_EVENT-asr-3> :=
    WINNER: "melbourne" ##219#228#
