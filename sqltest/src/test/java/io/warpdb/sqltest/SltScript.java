package io.warpdb.sqltest;

import java.util.List;

/** A parsed {@code .test} file: its name (path under the resources root) and its records. */
public record SltScript(String name, List<SltRecord> records) {
    public SltScript {
        records = List.copyOf(records);
    }

    public long queryCount() {
        return records.stream().filter(r -> r instanceof SltRecord.Query).count();
    }

    public long statementCount() {
        return records.stream().filter(r -> r instanceof SltRecord.Statement).count();
    }
}
