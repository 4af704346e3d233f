package org.apache.pdfbox.pdmodel;
// Compile-time stub: pdfbox-app jar is absent from the ARX snapshot; certificates are never rendered here.
public class PDDocument implements java.io.Closeable {
    public static PDDocument load(java.io.File f) throws java.io.IOException { throw new UnsupportedOperationException("stub"); }
    public static PDDocument load(java.io.InputStream s) throws java.io.IOException { throw new UnsupportedOperationException("stub"); }
    public void save(java.io.OutputStream s) throws java.io.IOException { throw new UnsupportedOperationException("stub"); }
    public void close() throws java.io.IOException { }
}
