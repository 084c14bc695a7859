package io.warpdb.ingest;

/** The parts of one input file, in file order. */
interface LoadSource extends AutoCloseable {
    /** The next part, or null after the last; the caller owns it. */
    LoadedPart next();

    /** Bytes of the file read so far (compressed bytes for a compressed file), for progress. */
    long bytesRead();

    @Override
    void close();
}
