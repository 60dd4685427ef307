"""Stage 2, normalize and align: from strings and corpora to comparable tokens and columns.

Owns the string normalizers (tags, punctuation, premodifiers), the one
tokenizer, spelling normalization by global mapping files (GLM), the word
aligner (costs, compiled kernels, the seeded route for long texts), two
corpora tokenized and paired for aligning (``tokenized``), and the
alignment of two corpora into columns that extents are normalized to (the
extents of many fills at once: ``column_extents``), the
word error rate exactly as NIST sclite computes it (``wer``), and both
alignments of two corpora spread over processes (``aligned_texts``).

May import: the foundation and :mod:`hub4eval.io`. Never a later stage.
"""
