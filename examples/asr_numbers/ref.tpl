; Reference for the asr_numbers example (transcript: reference.sgml).
; Offsets count from the '<' of each <DOC>. Made by make_example.py.

<TEMPLATE-SYN20050704.1830.0100-1> :=
    DOC_NR: SYN20050704.1830.0100 ##14#35#
    EVENT: <EVENT-SYN20050704.1830.0100-1>

<EVENT-SYN20050704.1830.0100-1> :=
    WHO: "Duke" ##75#79#
    AGAINST: "North Carolina" ##85#99#
    SCORE: "98-71" ##100#105#
    COUNT: "31 points" ##147#156#
           "4,250 fans" ##214#224#
    RATE: ".47" ##183#186#
    DATE: "Saturday" ##109#117#
    LOCATION: "Durham" ##121#127#

<TEMPLATE-SYN20050704.1830.0200-1> :=
    DOC_NR: SYN20050704.1830.0200 ##14#35#
    EVENT: <EVENT-SYN20050704.1830.0200-1>

<EVENT-SYN20050704.1830.0200-1> :=
    WHO: "New York Yankees" ##69#85#
    AGAINST: "Boston Red Sox" ##95#109#
    SCORE: "7-5" ##110#113#
    RANK: "21st" ##193#197#
    DURATION: "3 hours, 2 minutes" ##153#171#
    DATE: "July 4th" ##127#135#
    LOCATION: "Boston" ##117#123#

<TEMPLATE-SYN20050704.1830.0300-1> :=
    DOC_NR: SYN20050704.1830.0300 ##14#35#
    EVENT: <EVENT-SYN20050704.1830.0300-1>

<EVENT-SYN20050704.1830.0300-1> :=
    WHO: "General Motors" ##52#66#
    AMOUNT: "$3.5 million" ##102#114#
            "$62" ##263#266#
    COUNT: "48 workers" ##174#184#
    CHANGE: "0.45" ##246#250#
    DATE: "Tuesday" ##75#82#
          "2005" ##224#228#
    LOCATION: "Dayton, Ohio" ##138#150#

<TEMPLATE-SYN20050704.1830.0400-1> :=
    DOC_NR: SYN20050704.1830.0400 ##14#35#
    EVENT: <EVENT-SYN20050704.1830.0400-1>

<EVENT-SYN20050704.1830.0400-1> :=
    WHO: "Acme Chemical Company" ##89#110#
    AMOUNT: "$180,000" ##111#119#
            "$12,500" ##226#233#
    COUNT: "12 families" ##180#191#
    DATE: "March 17th" ##123#133#
          "1994" ##162#166#
    LOCATION: "Chicago" ##71#78#

<TEMPLATE-SYN20050704.1830.0500-1> :=
    DOC_NR: SYN20050704.1830.0500 ##14#35#
    EVENT: <EVENT-SYN20050704.1830.0500-1>

<EVENT-SYN20050704.1830.0500-1> :=
    WHO: "Discovery" ##70#79#
    AMOUNT: "$450 million" ##230#242#
    COUNT: "7" ##151#152#
           "208 times" ##171#180#
    DURATION: "13 days" ##121#128#
    DATE: "Friday" ##108#114#
          "2003" ##207#211#
    LOCATION: "Cape Canaveral" ##90#104#

<TEMPLATE-SYN20050704.1830.0600-1> :=
    DOC_NR: SYN20050704.1830.0600 ##14#35#
    EVENT: <EVENT-SYN20050704.1830.0600-1>

<EVENT-SYN20050704.1830.0600-1> :=
    WHO: "N.C.A.A." ##211#219#
    AMOUNT: "$38.25" ##166#172#
    RANK: "No. 1" ##200#205#
    DATE: "March 3rd, 1998" ##137#152#
          "9/11" ##244#248#
    LOCATION: "Crans-Montana" ##107#120#
    AGE: "34-year-old" ##54#65#
    CRAFT: "Boeing 737" ##92#102#
    FLIGHT: "Flight 1549" ##77#88#
    TIME: "7:45 p.m." ##124#133#
