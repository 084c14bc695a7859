package io.warpdb.exec.gpu.expr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.warpdb.core.expr.Call;
import io.warpdb.core.expr.ColumnRef;
import io.warpdb.core.expr.Expr;
import io.warpdb.core.expr.Literal;
import io.warpdb.core.expr.Op;
import io.warpdb.core.types.DataType;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which compiled outputs {@link ArithmeticChain} takes for {@code project_chain}, on TPC-H q01's
 * expressions as the SQL layer types them (an INTEGER 1 scaled up to the DECIMAL's scale). Runs
 * without a GPU.
 */
class ArithmeticChainTest {
    private static final DataType MONEY = DataType.decimal(15, 2);
    private static final ColumnRef PRICE = new ColumnRef(0, MONEY);
    private static final ColumnRef DISCOUNT = new ColumnRef(1, MONEY);
    private static final ColumnRef TAX = new ColumnRef(2, MONEY);
    private static final Literal ONE = Literal.ofLong(1, DataType.INTEGER);

    private static ArithmeticChain chainOf(Expr e) {
        return chainOf(e, MONEY);
    }

    /** The chain of {@code e} over columns price (of type {@code first}), discount and tax. */
    private static ArithmeticChain chainOf(Expr e, DataType first) {
        ProgramCompiler compiler = new ProgramCompiler(List.of(first, MONEY, MONEY), Arrays.asList(null, null, null),
                List.of(true, false, false), null);
        compiler.add(e, e.type());
        Program program = compiler.build();
        return ArithmeticChain.of(program, program.outputs().get(0));
    }

    @Test
    void discountedPriceWithAnIntegerOneIsAChain() {
        Expr oneMinusDiscount = Call.of(Op.SUBTRACT, DataType.decimal(16, 2), ONE, DISCOUNT);
        ArithmeticChain chain = chainOf(Call.of(Op.MULTIPLY, DataType.decimal(18, 4), PRICE, oneMinusDiscount));
        assertNotNull(chain);
        assertEquals(List.of(new ArithmeticChain.Leaf(-1, 8, 100), new ArithmeticChain.Leaf(1, 8, 0), new ArithmeticChain.Leaf(0, 8, 0)),
                chain.leaves());
        assertEquals(List.of(new ArithmeticChain.Step(Opcode.SUB_I.code(), false), new ArithmeticChain.Step(Opcode.MUL_I.code(), true)),
                chain.steps());
    }

    @Test
    void aConstantScaledPastSixtyFourBitsIsLeftToTheInterpreter() {
        Expr big = Call.of(Op.SUBTRACT, DataType.decimal(18, 2), Literal.ofLong(Long.MAX_VALUE / 10, DataType.BIGINT), DISCOUNT);
        assertNull(chainOf(big));
    }

    /** q01's charge once its discounted price is a column (FilterProject computes contained outputs first). */
    @Test
    void aDiscountedPriceColumnTimesOnePlusTaxIsAChain() {
        Expr charge = Call.of(Op.MULTIPLY, DataType.decimal(18, 6), new ColumnRef(0, DataType.decimal(18, 4)),
                Call.of(Op.ADD, DataType.decimal(16, 2), ONE, TAX));
        ArithmeticChain chain = chainOf(charge, DataType.decimal(18, 4));
        assertNotNull(chain);
        assertEquals(List.of(new ArithmeticChain.Leaf(-1, 8, 100), new ArithmeticChain.Leaf(2, 8, 0), new ArithmeticChain.Leaf(0, 8, 0)),
                chain.leaves());
    }

    @Test
    void aProductOfTwoSumsIsNotAChain() {
        Expr charge = Call.of(Op.MULTIPLY, DataType.decimal(18, 6),
                Call.of(Op.MULTIPLY, DataType.decimal(18, 4), PRICE, Call.of(Op.SUBTRACT, DataType.decimal(16, 2), ONE, DISCOUNT)),
                Call.of(Op.ADD, DataType.decimal(16, 2), ONE, TAX));
        assertNull(chainOf(charge));
    }
}
