"""The runs on top of the measures: configuration, the assessment, joining domain files and
the cross-check with sdcMicro (the only module of sdc that reaches R, lazily)."""
