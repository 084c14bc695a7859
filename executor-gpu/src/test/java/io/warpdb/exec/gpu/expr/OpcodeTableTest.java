package io.warpdb.exec.gpu.expr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The host's {@link Opcode} numbering is the kernel's: vm.cuh's {@code enum Opcode} lists the same
 * instructions in the same order, starting at 1. Runs without a GPU.
 */
class OpcodeTableTest {
    private static final Pattern ENUM = Pattern.compile("enum Opcode : int \\{([^}]*)\\}");

    @Test
    void kernelAndHostNumberTheInstructionsAlike() throws IOException {
        Matcher m = ENUM.matcher(VmSource.read());
        assertTrue(m.find(), "no enum Opcode in vm.cuh");
        String body = m.group(1).replaceAll("//[^\\n]*", "");
        assertTrue(body.contains("OP_COL_I32 = 1"), "the kernel's numbering must start at 1, as Opcode.code() does");
        List<String> kernel = Arrays.stream(body.split(","))
                .map(entry -> entry.replaceAll("=.*", "").trim())
                .filter(name -> !name.isEmpty())
                .toList();
        List<String> host = Arrays.stream(Opcode.values()).map(op -> "OP_" + op.name()).toList();
        assertEquals(host, kernel);
    }
}
