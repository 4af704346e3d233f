package org.apache.pdfbox.multipdf;
// Compile-time stub (see PDDocument).
public class Overlay {
    public enum Position { FOREGROUND, BACKGROUND }
    public void setInputPDF(org.apache.pdfbox.pdmodel.PDDocument d) { throw new UnsupportedOperationException("stub"); }
    public void setAllPagesOverlayPDF(org.apache.pdfbox.pdmodel.PDDocument d) { throw new UnsupportedOperationException("stub"); }
    public void setOverlayPosition(Position p) { throw new UnsupportedOperationException("stub"); }
    public org.apache.pdfbox.pdmodel.PDDocument overlay(java.util.Map<Integer, String> m) throws java.io.IOException { throw new UnsupportedOperationException("stub"); }
}
