package io.warpdb.exec.cpu.expr;

import io.warpdb.core.types.DataType;
import io.warpdb.exec.cpu.column.Column;
import java.util.Objects;

/**
 * s LIKE pattern [ESCAPE e], per row. With a constant pattern {@link ExprCompiler} runs it once
 * per dictionary entry of s; the compiled pattern is kept while the pattern text stays the same.
 */
final class LikeEvaluator implements Evaluator {
    private final Evaluator string;
    private final Evaluator pattern;
    private final Evaluator escape;
    private final DataType type;
    private String lastPattern;
    private String lastEscape;
    private LikePattern lastCompiled;

    /** {@code escape} may be null. */
    LikeEvaluator(Evaluator string, Evaluator pattern, Evaluator escape, DataType type) {
        this.string = string;
        this.pattern = pattern;
        this.escape = escape;
        this.type = type;
    }

    @Override
    public DataType type() {
        return type;
    }

    @Override
    public Column evaluate(EvalInput input) {
        Column s = string.evaluate(input);
        Column p = pattern.evaluate(input);
        Column e = escape == null ? null : escape.evaluate(input);
        boolean[] nulls = Column.nullsOfAny(s, p, e);
        long[] out = new long[s.size()];
        for (int i = 0; i < out.length; i++) {
            if (nulls == null || !nulls[i]) {
                out[i] = compiled(p.string(i), e == null ? null : e.string(i)).matches(s.string(i)) ? 1 : 0;
            }
        }
        return Column.ofLongs(type, out, nulls);
    }

    private LikePattern compiled(String patternText, String escapeText) {
        if (lastCompiled == null || !patternText.equals(lastPattern) || !Objects.equals(escapeText, lastEscape)) {
            lastCompiled = LikePattern.compile(patternText, escapeText);
            lastPattern = patternText;
            lastEscape = escapeText;
        }
        return lastCompiled;
    }
}
