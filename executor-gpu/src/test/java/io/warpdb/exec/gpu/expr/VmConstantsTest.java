package io.warpdb.exec.gpu.expr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.warpdb.core.value.Dates;
import io.warpdb.core.value.Decimals;
import io.warpdb.core.value.Timestamps;
import java.io.IOException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The constants that vm.cuh repeats from the host (it cannot call Java) are the host's: the value
 * rules of {@code io.warpdb.core.value}, the register count and the error codes. Runs without a GPU.
 */
class VmConstantsTest {
    @Test
    void calendarConstantsAreCoreDates() throws IOException {
        String vm = VmSource.read();
        assertEquals(Dates.DAYS_FROM_0000_03_01_TO_EPOCH, Long.parseLong(constexpr(vm, "long long", "DAYS_FROM_0000_03_01_TO_EPOCH")));
        assertEquals(Dates.DAYS_PER_400_YEARS, Long.parseLong(constexpr(vm, "long long", "DAYS_PER_400_YEARS")));
    }

    @Test
    void timestampConstantsAreCoreTimestamps() throws IOException {
        String vm = VmSource.read();
        assertEquals(Timestamps.MICROS_PER_SECOND, Long.parseLong(constexpr(vm, "long long", "MICROS_PER_SECOND")));
        assertEquals(Timestamps.MICROS_PER_MINUTE, Long.parseLong(constexpr(vm, "long long", "MICROS_PER_MINUTE")));
        assertEquals(Timestamps.MICROS_PER_HOUR, Long.parseLong(constexpr(vm, "long long", "MICROS_PER_HOUR")));
        assertEquals(Timestamps.MICROS_PER_DAY, Long.parseLong(constexpr(vm, "long long", "MICROS_PER_DAY")));
        for (Timestamps.Unit unit : Timestamps.Unit.values()) {
            assertEquals(unit.ordinal(), Integer.parseInt(constexpr(vm, "int", "UNIT_" + unit.name())), unit.name());
        }
        for (int p = 0; p < ProgramCompiler.TIME_PARTS.size(); p++) {
            String name = "PART_" + ProgramCompiler.TIME_PARTS.get(p).name();
            assertEquals(p, Integer.parseInt(constexpr(vm, "int", name)), name);
        }
        Matcher range = Pattern.compile("ERR_TIMESTAMP_RANGE = (\\d+)").matcher(vm);
        assertTrue(range.find(), "no ERR_TIMESTAMP_RANGE in vm.cuh");
        assertEquals(3, Integer.parseInt(range.group(1)), "FilterProject.raiseError's case for Timestamps.outOfRange");
    }

    @Test
    void doubleToDecimalBoundsAreCoreDecimals() throws IOException {
        String vm = VmSource.read();
        assertEquals(Decimals.TWO_POW_63, Double.parseDouble(constexpr(vm, "double", "TWO_POW_63")));
        assertEquals(Decimals.TIE_TOLERANCE, Double.parseDouble(constexpr(vm, "double", "TIE_TOLERANCE")));
    }

    @Test
    void registersAndErrorCodesAreTheHosts() throws IOException {
        String vm = VmSource.read();
        Matcher slots = Pattern.compile("#define VM_SLOTS (\\d+)").matcher(vm);
        assertTrue(slots.find(), "no VM_SLOTS in vm.cuh");
        assertEquals(ProgramCompiler.MAX_SLOTS, Integer.parseInt(slots.group(1)));
        Matcher entryBase = Pattern.compile("ERR_ENTRY_BASE = (\\d+)").matcher(vm);
        assertTrue(entryBase.find(), "no ERR_ENTRY_BASE in vm.cuh");
        assertEquals(Program.ENTRY_ERROR_BASE, Integer.parseInt(entryBase.group(1)));
    }

    @Test
    void roundingModesAndMathFunctionsAreNumberedAlike() throws IOException {
        String vm = VmSource.read();
        assertEquals(ProgramCompiler.ROUND_DOWN, Integer.parseInt(constexpr(vm, "int", "ROUND_DOWN")));
        assertEquals(ProgramCompiler.ROUND_FLOOR, Integer.parseInt(constexpr(vm, "int", "ROUND_FLOOR")));
        assertEquals(ProgramCompiler.ROUND_CEILING, Integer.parseInt(constexpr(vm, "int", "ROUND_CEILING")));
        for (int f = 0; f < ProgramCompiler.MATH_FUNCTIONS.size(); f++) {
            String name = "MATH_" + ProgramCompiler.MATH_FUNCTIONS.get(f).name();
            assertEquals(f, Integer.parseInt(constexpr(vm, "int", name)), name);
        }
    }

    /** The value of vm.cuh's {@code constexpr type name = value;}. */
    private static String constexpr(String vm, String type, String name) {
        Matcher m = Pattern.compile("constexpr " + Pattern.quote(type) + " " + name + " = ([^;]+);").matcher(vm);
        assertTrue(m.find(), "no constexpr " + name + " in vm.cuh");
        return m.group(1).trim();
    }
}
