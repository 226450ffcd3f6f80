import NIOCore
import NIOPosix
import NIOSSL
import NIOTLS
import SwiftASN1
import X509

/// A TCP client that speaks raw bytes to the proxy, so that tests can send what browsers never would.
struct RawClient {
    let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>

    static func connect(port: Int) async throws -> RawClient {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        return RawClient(channel: channel)
    }

    /// Sends `text` and returns everything received until the proxy closes the connection or `timeout` passes.
    static func exchange(_ text: String, port: Int, timeout: Duration = .seconds(30)) async throws -> String {
        let client = try await connect(port: port)
        return try await client.channel.executeThenClose { inbound, outbound in
            // The proxy may have answered and closed already (a refused connection): read what it sent.
            try? await outbound.write(ByteBuffer(string: text))
            return try await readAll(inbound, until: { _ in false }, timeout: timeout)
        }
    }

    /// Reads until `done` holds for what has arrived, the stream ends or `timeout` passes.
    static func readAll(
        _ inbound: NIOAsyncChannelInboundStream<ByteBuffer>, until done: @escaping @Sendable (String) -> Bool,
        timeout: Duration
    ) async throws -> String {
        try await withThrowingTaskGroup(of: String?.self) { group in
            group.addTask {
                var text = ""
                for try await buffer in inbound {
                    text += String(buffer: buffer)
                    if done(text) { break }
                }
                return text
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            guard let first else { throw RawClientError.timedOut }
            return first
        }
    }

    /// Opens a tunnel with CONNECT, starts TLS inside it trusting only `roots`, sends `request`, and returns the
    /// CONNECT answer, the certificate the far end presented and the response read until the connection closes.
    static func tunnelTLS(
        proxyPort: Int, target: String, serverName: String?, roots: [NIOSSLCertificate], request: String
    ) async throws -> (connect: String, peer: Certificate?, response: String) {
        let client = try await connect(port: proxyPort)
        let channel = client.channel.channel
        return try await client.channel.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(string: "CONNECT \(target) HTTP/1.1\r\nHost: \(target)\r\n\r\n"))
            var iterator = inbound.makeAsyncIterator()
            var connect = ""
            while !connect.contains("\r\n\r\n"), let buffer = try await iterator.next() {
                connect += String(buffer: buffer)
            }
            guard connect.hasPrefix("HTTP/1.1 200") else { return (connect, nil, "") }
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.trustRoots = .certificates(roots)
            configuration.applicationProtocols = ["http/1.1"]
            let context = try NIOSSLContext(configuration: configuration)
            let handshake = channel.eventLoop.makePromise(of: NIOSSLCertificate?.self)
            try await channel.eventLoop.submit {
                let tls = try NIOSSLClientHandler(context: context, serverHostname: serverName)
                try channel.pipeline.syncOperations.addHandler(tls, position: .first)
                try channel.pipeline.syncOperations.addHandler(
                    HandshakeWatcher(tls: tls, done: handshake), position: .after(tls))
            }.get()
            let der = try await handshake.futureResult.get()?.toDERBytes()
            try await outbound.write(ByteBuffer(string: request))
            var response = ""
            while let buffer = try await iterator.next() { response += String(buffer: buffer) }
            return (connect, try der.map { try Certificate(derEncoded: $0) }, response)
        }
    }
}

enum RawClientError: Error {
    case timedOut
}

/// Reports the peer's certificate once the TLS handshake completes, or the handshake's failure.
private final class HandshakeWatcher: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    let tls: NIOSSLClientHandler
    let done: EventLoopPromise<NIOSSLCertificate?>

    init(tls: NIOSSLClientHandler, done: EventLoopPromise<NIOSSLCertificate?>) {
        self.tls = tls
        self.done = done
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .handshakeCompleted = event as? TLSUserEvent { done.succeed(tls.peerCertificate) }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        done.fail(error)
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        done.fail(RawClientError.timedOut)
        context.fireChannelInactive()
    }
}
