; Hypothesis of a perfect extractor on the recognizer output (asr.sgml):
; each reference fill projected through a word alignment onto the
; recognizer's words; offsets count from the '<' of each <DOC>.
; Made by make_example.py.

<TEMPLATE-SYN20050704.1830.0100-1> :=
    DOC_NR: SYN20050704.1830.0100 ##14#35#
    EVENT: <EVENT-SYN20050704.1830.0100-1>

<EVENT-SYN20050704.1830.0100-1> :=
    WHO: "hoop" ##74#78#
    AGAINST: "north can" ##83#92#
    SCORE: "ninety eight to seventy one" ##100#127#
    COUNT: "thirty one point" ##172#188#
           "four thousand two hundred fifty friends" ##265#304#
    RATE: "point four seven" ##221#237#
    DATE: "saturday" ##131#139#
    LOCATION: "i'm" ##144#147#

<TEMPLATE-SYN20050704.1830.0200-1> :=
    DOC_NR: SYN20050704.1830.0200 ##14#35#
    EVENT: <EVENT-SYN20050704.1830.0200-1>

<EVENT-SYN20050704.1830.0200-1> :=
    WHO: "new york yankees" ##70#86#
    AGAINST: "boston red sox" ##96#110#
    SCORE: "went to find" ##115#127#
    RANK: "twenty first" ##219#231#
    DURATION: "three hours to meet its" ##170#193#
    DATE: "you like farce" ##139#153#
    LOCATION: "cost" ##130#134#

<TEMPLATE-SYN20050704.1830.0300-1> :=
    DOC_NR: SYN20050704.1830.0300 ##14#35#
    EVENT: <EVENT-SYN20050704.1830.0300-1>

<EVENT-SYN20050704.1830.0300-1> :=
    WHO: "general motors" ##52#66#
    AMOUNT: "three point five million dollars" ##95#127#
            "sixty two dollars" ##309#326#
    COUNT: "forty eight wickets" ##183#202#
    CHANGE: "zero point four five" ##276#296#
    DATE: "the" ##76#79#
          "two thousand five" ##248#265#
    LOCATION: "a in ohio" ##151#160#

<TEMPLATE-SYN20050704.1830.0400-1> :=
    DOC_NR: SYN20050704.1830.0400 ##14#35#
    EVENT: <EVENT-SYN20050704.1830.0400-1>

<EVENT-SYN20050704.1830.0400-1> :=
    WHO: "actually chemical company" ##84#109#
    AMOUNT: "one hundred eighty thousand dollars" ##110#145#
            "the whale thousand five hundred dollars" ##278#317#
    COUNT: "whale then" ##226#236#
    DATE: "march seventeenth" ##149#166#
          "nineteen ninety far" ##194#213#
    LOCATION: "chicago" ##66#73#

<TEMPLATE-SYN20050704.1830.0500-1> :=
    DOC_NR: SYN20050704.1830.0500 ##14#35#
    EVENT: <EVENT-SYN20050704.1830.0500-1>

<EVENT-SYN20050704.1830.0500-1> :=
    WHO: "discovery" ##70#79#
    AMOUNT: "four hundred fifty million dollars" ##259#293#
    COUNT: "seven" ##152#157#
           "two hundred eighty times" ##176#200#
    DURATION: "thirty days" ##121#132#
    DATE: "friday" ##108#114#
          "two thousand three" ##223#241#
    LOCATION: "cape canaveral" ##90#104#

<TEMPLATE-SYN20050704.1830.0600-1> :=
    DOC_NR: SYN20050704.1830.0600 ##14#35#
    EVENT: <EVENT-SYN20050704.1830.0600-1>

<EVENT-SYN20050704.1830.0600-1> :=
    WHO: "loop" ##313#317#
    AMOUNT: "thirty eight dollars and twenty five cents" ##225#267#
    RANK: "number one" ##294#304#
    DATE: "my third id like the" ##185#205#
          "nine eleven" ##337#348#
    LOCATION: "commands montana" ##142#158#
    AGE: "thirty four year old" ##52#72#
    CRAFT: "boeing seven thirty seven" ##113#138#
    FLIGHT: "like fifteen far behind" ##84#107#
    TIME: "seven forty five pm" ##162#181#
