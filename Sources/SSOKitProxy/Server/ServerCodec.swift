import NIOCore
import NIOHTTP1

/// The HTTP/1.1 handlers in front of a browser connection. Framing headers are set by the proxy itself (it knows
/// whether a response answers HEAD and how the origin framed it), and the decoder keeps the bytes after a CONNECT
/// so that they reach the tunnel or the TLS handler once the codec is removed.
struct ServerCodec {
    let encoder: HTTPResponseEncoder
    let decoder: ByteToMessageHandler<HTTPRequestDecoder>

    init(limits: ProxyLimits) {
        var encoderConfiguration = HTTPResponseEncoder.Configuration()
        encoderConfiguration.automaticallySetFramingHeaders = false
        encoder = HTTPResponseEncoder(configuration: encoderConfiguration)
        var decoderLimits = NIOHTTPDecoderLimitConfiguration()
        decoderLimits.maxHeaderFieldSize = limits.maximumHeaderBytes
        decoderLimits.maxHeaderListSize = limits.maximumHeaderBytes
        decoderLimits.maxHeaderFieldCount = 256
        decoder = ByteToMessageHandler(
            HTTPRequestDecoder(
                leftOverBytesStrategy: .forwardBytes, informationalResponseStrategy: .drop,
                limitConfiguration: decoderLimits))
    }

    /// Adds the codec at the end of `pipeline`, or right after `handler`.
    func add(to pipeline: ChannelPipeline.SynchronousOperations, after handler: (any ChannelHandler)? = nil) throws {
        if let handler {
            try pipeline.addHandler(encoder, position: .after(handler))
        } else {
            try pipeline.addHandler(encoder)
        }
        try pipeline.addHandler(decoder, position: .after(encoder))
    }

    /// Removes the codec; bytes the decoder holds go on to the handler after it.
    func remove(from pipeline: ChannelPipeline.SynchronousOperations) {
        pipeline.removeHandler(decoder, promise: nil)
        pipeline.removeHandler(encoder, promise: nil)
    }
}
