; Reference for the ASR example (human transcript: reference.sgml).
<TEMPLATE-ABC19980120.1830.0500-1> :=
    DOC_NR: ABC19980120.1830.0500 ##14#35#
    EVENT: <SPORTS_EVENT-ABC19980120.1830.0500-1>

<SPORTS_EVENT-ABC19980120.1830.0500-1> :=
    WINNER: "Brazil" ##63#69#
    LOSER: "Chile" ##75#80#
    SCORE: "two to nothing" ##81#95#
    LOCATION: "Rio de Janeiro" ##99#113#
    DATE: "Wednesday" ##117#126#
    SCORER: "Glen Buni- Bunting" ##128#146#

<TEMPLATE-ABC19980120.1830.0600-1> :=
    DOC_NR: ABC19980120.1830.0600 ##14#35#
    EVENT: <SPORTS_EVENT-ABC19980120.1830.0600-1>

<SPORTS_EVENT-ABC19980120.1830.0600-1> :=
    WINNER: "Martina Hingis" ##63#77#
    LOSER: "Conchita Martinez" ##87#104#
    SCORE: "six three, six three" ##105#125#
    LOCATION: "Melbourne" ##129#138#
