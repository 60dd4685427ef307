"""Stage 1, parse: reading the files a user gives into the data model.

Owns templette files (reading, checking, writing), text corpora (SGML documents
or raw unsegmented ASR output; ctm, trn, stm and plain text in ``formats``), decoding files with positioned errors, and the
check of a template set's DOCIDs and extents against its corpus, and named
entities (MUC inline markup, JSON Lines) with the templettes of their regions.

May import: the foundation (``hub4eval.model``, ``hub4eval.errors``,
``hub4eval.config``, ``hub4eval.util``). Never a later stage.
"""
