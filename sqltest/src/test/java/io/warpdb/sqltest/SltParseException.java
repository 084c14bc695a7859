package io.warpdb.sqltest;

/** A malformed {@code .test} file; the message starts with {@code file:line:}. */
public final class SltParseException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public SltParseException(String file, int line, String message) {
        super(file + ":" + line + ": " + message);
    }
}
