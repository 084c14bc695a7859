package io.warpdb.core.exchange;

import io.warpdb.core.batch.Batch;
import io.warpdb.core.types.Schema;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * Moving a repartition's rows between the node processes of one host device to device (CUDA IPC
 * on GPUs), offered by an accelerator's executor through {@link ServiceLoader}
 * ({@code META-INF/services/io.warpdb.core.exchange.DeviceExchange}). The sender hashes a chunk
 * into parts that stay in its device memory ({@link #split}) and sends each peer a small
 * descriptor over the cluster's channel; the receiver copies the rows into its own device memory
 * ({@link #pull}) and answers, on which the sender frees them. Rows go through the host instead
 * between processes that cannot map each other's memory ({@link #reaches}: another host, a device
 * without peer access, the same process).
 */
public interface DeviceExchange {
    /** Whether it can run here (a device is present). */
    boolean available();

    /** How peers find this process's device memory: its host, device and memory handle (opaque to the cluster). */
    byte[] address();

    /** Whether this process can pull from the process at {@code peerAddress} (another's {@link #address}). */
    boolean reaches(byte[] peerAddress);

    /**
     * The rows of {@code batches} hashed on {@code keys} into {@code parts} parts as {@link
     * io.warpdb.core.partition.HashPartitioner} places them, kept on the device; empty when the device
     * cannot hold them now (the caller then takes the host path).
     */
    Optional<DeviceParts> split(List<Batch> batches, List<Integer> keys, int parts);

    /**
     * As {@link #split(List, List, int)}, for rows [{@code from}, {@code from + count}) of rows
     * already on this device (an executor's result, {@link
     * io.warpdb.core.batch.BatchStream#takeResident}): hashed where they are, no copy in, so that a
     * caller can hash a large result a chunk at a time and send each chunk's parts while the next is
     * hashed. The rows stay the caller's. Empty when they are not this device's or it cannot hold
     * the parts now.
     */
    Optional<DeviceParts> split(ResidentRows rows, int from, int count, List<Integer> keys, int parts);

    /**
     * Copies the rows {@code descriptor} names (exported by the process at {@code peerAddress})
     * into this device, as rows of {@code schema} the caller owns; returns once they are copied.
     */
    ResidentRows pull(byte[] peerAddress, ByteBuffer descriptor, Schema schema);

    /** Closes this process's mapping of the device memory of the process at {@code peerAddress} (a peer gone or restarted). */
    void forget(byte[] peerAddress);

    /** The first available accelerator's exchange on the class path, if any. */
    static Optional<DeviceExchange> find() {
        return ServiceLoader.load(DeviceExchange.class, DeviceExchange.class.getClassLoader()).stream()
                .map(ServiceLoader.Provider::get)
                .filter(DeviceExchange::available)
                .findFirst();
    }
}
