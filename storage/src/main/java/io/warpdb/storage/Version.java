package io.warpdb.storage;

/**
 * A manifest that is live: current, or pinned by an open {@link CatalogSnapshot}. It holds a
 * reference on every segment and delete vector it names; when the last holder lets go, those
 * whose count drops to zero are freed (memory closed, files deleted).
 */
final class Version extends RefCounted {
    private final Manifest manifest;

    private Version(Manifest manifest) {
        this.manifest = manifest;
    }

    /** A version taking its own references on the manifest's segments. */
    static Version of(Manifest manifest) {
        manifest.forEachSegment(SegmentRef::retain);
        return new Version(manifest);
    }

    /** A version taking over the references of whoever created the segments (recovery). */
    static Version adopt(Manifest manifest) {
        return new Version(manifest);
    }

    Manifest manifest() {
        return manifest;
    }

    @Override
    protected void free() {
        manifest.forEachSegment(SegmentRef::release);
    }
}
