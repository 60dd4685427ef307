; Reference for the clean example: see tests/test_clean_example.py for the hand derivation.
<TEMPLATE-VOA19980111.2300.0414-1> :=
    DOC_NR: VOA19980111.2300.0414 ##14#35#
    EVENT: <SPORTS_EVENT-VOA19980111.2300.0414-1>
           <SPORTS_EVENT-VOA19980111.2300.0414-2>

<SPORTS_EVENT-VOA19980111.2300.0414-1> :=
    S_EVENT: "the Australian Open women's final" ##132#165#
           / "Australian Open" ##136#151#
    WINNER: "Martina [Hingis]" ##66#80#
    LOSER: "Conchita Martinez" ##86#103#
    SCORE: "6-3, 6-3" ##104#112#
    LOCATION: "Melbourne" ##55#64#
    DATE: ? "Saturday" ##116#124#

<SPORTS_EVENT-VOA19980111.2300.0414-2> :=
    S_EVENT: "the men's title" ##184#199#
    WINNER: "Petr Korda" ##168#178#
    DATE: "the next day" ##200#212#
    OBJ_STATUS: OPTIONAL
    COMMENT: "the men's final is only mentioned in passing"

<TEMPLATE-CNN19980112.1600.0100-1> :=
    DOC_NR: CNN19980112.1600.0100 ##14#35#
    EVENT: <SPORTS_EVENT-CNN19980112.1600.0100-1>
           <SPORTS_EVENT-CNN19980112.1600.0100-2>

<SPORTS_EVENT-CNN19980112.1600.0100-1> :=
    S_EVENT: "a friendly match" ##81#97#
    WINNER: "Brazil" ##52#58#
    LOSER: "Chile" ##68#73#
    SCORE: "2-1" ##74#77#
    LOCATION: "Rio de Janeiro" ##101#115#
    DATE: "Wednesday" ##119#128#

<SPORTS_EVENT-CNN19980112.1600.0100-2> :=
    LOCATION: "Santiago" ##159#167#
    DATE: "May" ##171#174#
    OBJ_STATUS: OPTIONAL

<TEMPLATE-ABC19980113.1830.0200-1> :=
    DOC_NR: ABC19980113.1830.0200 ##14#35#
    COMMENT: "weather, no sports event"
