package io.warpdb.exec.gpu.expr;

/** An expression the GPU interpreter cannot evaluate; the message is EXPLAIN's reason. */
public final class Unsupported extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public Unsupported(String reason) {
        super(reason, null, false, false);
    }
}
