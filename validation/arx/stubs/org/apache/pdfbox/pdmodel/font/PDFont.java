package org.apache.pdfbox.pdmodel.font;
// Compile-time stub (see PDDocument).
public abstract class PDFont { }
