package io.warpdb.cluster;

import io.warpdb.core.error.SqlState;
import io.warpdb.core.error.WarpException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.openucx.jucx.UcxCallback;
import org.openucx.jucx.UcxException;
import org.openucx.jucx.UcxUtils;
import org.openucx.jucx.ucp.UcpAmData;
import org.openucx.jucx.ucp.UcpConstants;
import org.openucx.jucx.ucp.UcpContext;
import org.openucx.jucx.ucp.UcpEndpoint;
import org.openucx.jucx.ucp.UcpEndpointParams;
import org.openucx.jucx.ucp.UcpParams;
import org.openucx.jucx.ucp.UcpRequest;
import org.openucx.jucx.ucp.UcpWorker;
import org.openucx.jucx.ucp.UcpWorkerParams;
import org.openucx.jucx.ucs.UcsConstants;

/**
 * A node's UCX endpoint (jucx over the system's UCX, host memory): one UCP worker driven by one
 * progress thread, which alone calls into UCX; other threads hand it work and wake it. Peers are
 * reached by their worker address (which a node publishes over its Flight service), so no port is
 * needed. Everything travels as one kind of UCX active message, a frame of a {@link UcxChannel}:
 * a 9-byte header (channel id, frame type) and a payload; large payloads go by UCX's rendezvous
 * protocol. A channel's first frame carries the opener's worker address and name ({@code node <id>}).
 * A peer that fails (UCX's peer error handling) fails every channel to it. The transport remembers
 * each node's worker address, as its channels' OPEN frames or the caller ({@link #remember}) last
 * told it, until UCX finds that address gone.
 */
final class UcxTransport implements AutoCloseable {
    /** Takes a channel a peer opened, with the request it carries; runs on the progress thread, so it must not block. */
    interface Acceptor {
        void accept(UcxChannel channel, ByteBuffer request);
    }

    private static final int FRAME_MESSAGE = 1;
    private static final int HEADER_BYTES = Long.BYTES + 1;
    /** What a node's name begins with in its channels' OPEN frames ({@code node <id>}). */
    private static final String NODE = "node ";

    private final UcpContext context;
    private final UcpWorker worker;
    private final byte[] address;
    /** This node's name as the peers' channels name it ({@code node <id>}), in UTF-8. */
    private final byte[] name;
    private final Acceptor acceptor;
    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    /** Endpoints by the peer's worker address; the progress thread's alone. */
    private final Map<ByteBuffer, UcpEndpoint> endpoints = new HashMap<>();
    private final Map<Long, UcxChannel> channels = new ConcurrentHashMap<>();
    /**
     * Each peer's last answer to this process's device offer, by the peer's worker address (a
     * restarted peer has a new one); dropped when UCX finds the peer gone.
     */
    private final Map<ByteBuffer, Boolean> answers = new ConcurrentHashMap<>();
    /** The nodes' worker addresses, by node id, as last told; dropped when UCX finds the address gone. */
    private final Map<String, ByteBuffer> addresses = new ConcurrentHashMap<>();
    /** Sends handed to UCX and not completed yet. */
    private final Set<Sent> sending = ConcurrentHashMap.newKeySet();
    /** Channel ids: random high bits, so that ids two nodes choose do not meet at a third. */
    private final AtomicLong nextId = new AtomicLong(new SecureRandom().nextLong() & ~0xFFFF_FFFFL);
    private final Thread progress;
    private volatile boolean running = true;
    /** Guards the worker's end: once the progress thread closed it, nobody signals it. */
    private final Object lifecycle = new Object();
    private boolean workerClosed;

    private UcxTransport(String name, Acceptor acceptor) {
        this.acceptor = acceptor;
        this.name = (NODE + name).getBytes(StandardCharsets.UTF_8);
        this.context = new UcpContext(new UcpParams().requestAmFeature().requestWakeupFeature());
        this.worker = context.newWorker(new UcpWorkerParams().requestWakeupRX().requestWakeupTX());
        ByteBuffer workerAddress = worker.getAddress();
        this.address = new byte[workerAddress.remaining()];
        workerAddress.get(address);
        worker.setAmRecvHandler(FRAME_MESSAGE, this::onMessage, UcpConstants.UCP_AM_FLAG_WHOLE_MSG);
        this.progress = new Thread(this::progressLoop, "ucx-progress-" + name);
        progress.setDaemon(true);
        progress.start();
    }

    /**
     * Starts the UCX transport of node {@code name}; fails with SQLSTATE 08001 and a clear message
     * when the system's UCX libraries cannot be loaded.
     */
    static UcxTransport start(String name, Acceptor acceptor) {
        try {
            return new UcxTransport(name, acceptor);
        } catch (UnsatisfiedLinkError | NoClassDefFoundError | ExceptionInInitializerError | UcxException e) {
            throw new WarpException(SqlState.UNABLE_TO_CONNECT, "transport = ucx, but UCX cannot be loaded (install the system's UCX"
                    + " libraries, on Debian: apt-get install libucx0; or set transport = flight): " + e, e);
        }
    }

    /** This worker's address, which a peer needs to reach it. */
    byte[] address() {
        return address.clone();
    }

    /** A new channel to the peer at {@code peer}, opened with {@code request} (which the peer's acceptor receives). */
    UcxChannel open(byte[] peer, String peerName, ByteBuffer request) {
        UcxChannel channel = new UcxChannel(this, nextId.incrementAndGet(), ByteBuffer.wrap(peer.clone()), peerName);
        channels.put(channel.id(), channel);
        ByteBuffer open = ByteBuffer.allocate(2 * Integer.BYTES + address.length + name.length + request.remaining());
        open.putInt(address.length).put(address).putInt(name.length).put(name).put(request.duplicate()).flip();
        send(channel, UcxChannel.OPEN, open);
        return channel;
    }

    /**
     * Sends a frame; the future completes once UCX is done with the payload (the peer may not have
     * it yet), or fails; it completes whatever happens, the transport's end included, so a caller
     * may free the payload then.
     */
    CompletableFuture<Void> send(UcxChannel channel, byte type, ByteBuffer payload) {
        ByteBuffer header = ByteBuffer.allocateDirect(HEADER_BYTES);
        header.putLong(0, channel.id()).put(Long.BYTES, type);
        ByteBuffer data = payload.isDirect() ? payload : ByteBuffer.allocateDirect(payload.remaining()).put(payload.duplicate()).flip();
        Sent sent = new Sent(header, data, channel.peer(), channel.peerName());
        submit(sent);
        return sent.future;
    }

    /** A frame to send, then sending: holds its buffers, which must live until UCX is done with them. */
    private final class Sent extends UcxCallback implements Runnable {
        private final ByteBuffer header;
        private final ByteBuffer data;
        private final CompletableFuture<Void> future = new CompletableFuture<>();
        private final ByteBuffer peer;
        private final String peerName;

        Sent(ByteBuffer header, ByteBuffer data, ByteBuffer peer, String peerName) {
            this.header = header;
            this.data = data;
            this.peer = peer;
            this.peerName = peerName;
        }

        /** On the progress thread: hands the frame to UCX. */
        @Override
        public void run() {
            sending.add(this);
            try {
                endpoint(peer).sendAmNonBlocking(FRAME_MESSAGE, UcxUtils.getAddress(header), HEADER_BYTES,
                        UcxUtils.getAddress(data) + data.position(), data.remaining(), 0, this);
            } catch (UcxException e) {
                fail(e.getMessage());
            }
        }

        @Override
        public void onSuccess(UcpRequest request) {
            sending.remove(this);
            future.complete(null);
        }

        @Override
        public void onError(int status, String message) {
            fail(message + " (" + header.capacity() + "+" + data.capacity() + " bytes)");
        }

        void fail(String why) {
            sending.remove(this);
            forgetAddress(peer);
            future.completeExceptionally(new WarpException(SqlState.CONNECTION_FAILURE, "UCX send to " + peerName + " failed: " + why));
        }
    }

    /**
     * The worker address of node {@code nodeId} as last told (the OPEN frame of a channel it opened,
     * or {@link #remember}), else as a channel open now to it has it, or null when there is none:
     * the node lives at that address (a restarted node opens a channel to every node first, {@link
     * UcxExchange#announce}; UCX fails the channels of a peer it finds gone, and a peer that does not
     * answer in time is forgotten too), so a caller need not ask its Flight service.
     */
    byte[] knownAddress(String nodeId) {
        ByteBuffer known = addresses.get(nodeId);
        if (known == null) {
            String named = NODE + nodeId + " ("; // how this node names the peers it opens channels to (FlightExchange.describe)
            known = channels.values().stream().filter(c -> c.peerName().startsWith(named) && c.open()).map(UcxChannel::peer).findAny()
                    .orElse(null);
        }
        if (known == null) {
            return null;
        }
        ByteBuffer peer = known.duplicate();
        byte[] address = new byte[peer.remaining()];
        peer.get(address);
        return address;
    }

    /** Remembers that node {@code nodeId} lives at {@code address} (its Flight service said so). */
    void remember(String nodeId, byte[] address) {
        addresses.put(nodeId, ByteBuffer.wrap(address.clone()));
    }

    /** Forgets the nodes remembered at {@code peer}, whose worker UCX found gone or that did not answer in time. */
    void forgetAddress(ByteBuffer peer) {
        addresses.values().removeIf(peer::equals);
    }

    /** Remembers that the peer at {@code peer} answered this process's device offer with {@code pulls}. */
    void answered(ByteBuffer peer, boolean pulls) {
        answers.put(peer, pulls);
    }

    /** The last answer of the peer at {@code peer} to this process's device offer, or null when it gave none (or is gone). */
    Boolean answerOf(ByteBuffer peer) {
        return answers.get(peer);
    }

    /** Forgets a closed channel: frames that still come for it are dropped. */
    void forget(UcxChannel channel) {
        channels.remove(channel.id());
    }

    /** Queues {@code task} for the progress thread and wakes it; a send after the transport's end fails at once. */
    private void submit(Runnable task) {
        synchronized (lifecycle) {
            if (workerClosed) {
                if (task instanceof Sent sent) {
                    sent.fail("the node is stopping");
                }
                return;
            }
            tasks.add(task);
            worker.signal();
        }
    }

    /** Wakes the progress thread, unless it has ended (its worker is closed: a signal then would touch freed memory). */
    private void wake() {
        synchronized (lifecycle) {
            if (!workerClosed) {
                worker.signal();
            }
        }
    }

    private UcpEndpoint endpoint(ByteBuffer peer) {
        UcpEndpoint endpoint = endpoints.get(peer);
        if (endpoint == null) {
            ByteBuffer peerAddress = ByteBuffer.allocateDirect(peer.remaining()).put(peer.duplicate()).flip();
            endpoint = worker.newEndpoint(new UcpEndpointParams().setUcpAddress(peerAddress).setPeerErrorHandlingMode()
                    .setErrorHandler((failed, status, message) -> peerFailed(peer, failed, message)));
            endpoints.put(peer, endpoint);
        }
        return endpoint;
    }

    /** On the progress thread: the peer is gone; its channels fail and its endpoint is dropped (a restarted peer has a new address). */
    private void peerFailed(ByteBuffer peer, UcpEndpoint failed, String message) {
        if (endpoints.get(peer) == failed) {
            endpoints.remove(peer);
        }
        answers.remove(peer);
        forgetAddress(peer);
        channels.values().stream().filter(c -> c.peer().equals(peer)).forEach(c -> c.lost("UCX: " + message));
        tasks.add(failed::closeNonBlockingForce);
    }

    private int onMessage(long headerAddress, long headerSize, UcpAmData data, UcpEndpoint replyEndpoint) {
        ByteBuffer header = UcxUtils.getByteBufferView(headerAddress, headerSize);
        long id = header.getLong(0);
        byte type = header.get(Long.BYTES);
        int length = (int) data.getLength();
        if (data.isDataValid()) {
            ByteBuffer payload = ByteBuffer.allocate(length);
            if (length > 0) {
                payload.put(UcxUtils.getByteBufferView(data.getDataAddress(), length)).flip();
            }
            deliver(id, type, payload);
        } else {
            ByteBuffer payload = ByteBuffer.allocateDirect(length);
            data.receive(UcxUtils.getAddress(payload), new UcxCallback() {
                @Override
                public void onSuccess(UcpRequest request) {
                    deliver(id, type, payload);
                }

                @Override
                public void onError(int status, String message) {
                    UcxChannel channel = channels.get(id);
                    if (channel != null) {
                        channel.lost("UCX receive failed: " + message);
                    }
                }
            });
        }
        return UcsConstants.STATUS.UCS_OK;
    }

    private void deliver(long id, byte type, ByteBuffer payload) {
        if (type == UcxChannel.OPEN) {
            byte[] peer = new byte[payload.getInt()];
            payload.get(peer);
            byte[] peerName = new byte[payload.getInt()];
            payload.get(peerName);
            String named = new String(peerName, StandardCharsets.UTF_8);
            UcxChannel channel = new UcxChannel(this, id, ByteBuffer.wrap(peer), named);
            channels.put(id, channel);
            if (named.startsWith(NODE)) {
                addresses.put(named.substring(NODE.length()), channel.peer());
            }
            acceptor.accept(channel, payload.slice());
            return;
        }
        UcxChannel channel = channels.get(id);
        if (channel != null) {
            channel.received(type, payload);
        }
    }

    private void progressLoop() {
        try {
            while (running) {
                for (Runnable task = tasks.poll(); task != null; task = tasks.poll()) {
                    task.run();
                }
                if (worker.progress() == 0 && tasks.isEmpty() && running) {
                    worker.waitForEvents();
                }
            }
        } catch (Exception | Error e) {
            channels.values().forEach(c -> c.lost("the UCX progress thread failed: " + e));
            throw new IllegalStateException("UCX progress failed", e);
        } finally {
            synchronized (lifecycle) {
                endpoints.values().forEach(UcpEndpoint::closeNonBlockingForce);
                endpoints.clear();
                worker.close();
                context.close();
                workerClosed = true;
            }
            // sends UCX never finished, or never began: their callers may free the frames now
            List.copyOf(sending).forEach(s -> s.fail("the node is stopping"));
            for (Runnable task = tasks.poll(); task != null; task = tasks.poll()) {
                if (task instanceof Sent sent) {
                    sent.fail("the node is stopping");
                }
            }
        }
    }

    /** Stops the transport; once is enough, a second call does nothing. */
    @Override
    public synchronized void close() {
        if (!running) {
            return;
        }
        running = false;
        channels.values().forEach(c -> c.lost("the node is stopping"));
        wake();
        try {
            progress.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
