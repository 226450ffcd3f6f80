import ArgumentParser
import Foundation
import SSOKitCore
import SSOKitDevIdP
import SSOKitExtension
import SSOKitHummingbird
import SSOKitOIDC
import SSOKitProxy
import SSOKitRights
import SSOKitSAML
import SSOKitTokenCache

/// Printing results and failures the way the CLI contract says: one JSON object on stdout, exit 0 or 1.
enum CLIOutput {
    static func success(_ members: [String: JSONValue]) {
        print(JSONValue.object(members).jsonText)
    }

    static func note(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Prints `{"error": code, "message": reason}` and returns the exit code 1.
    static func failure(code: String, message: String) -> ExitCode {
        print(JSONValue.object(["error": .string(code), "message": .string(message)]).jsonText)
        return ExitCode(1)
    }

    /// Prints a profile refusal, with `"problems"` when it has any, and returns the exit code 1.
    static func failure(_ error: ProfileError) -> ExitCode {
        var members: [String: JSONValue] = ["error": .string(error.code.description), "message": .string(error.reason)]
        if !error.problems.isEmpty {
            members["problems"] = .array(
                error.problems.map { problem in
                    .object([
                        "payload": .string(problem.payload), "key": .string(problem.key),
                        "message": .string(problem.message), "code": .string(problem.code.description),
                    ])
                })
        }
        print(JSONValue.object(members).jsonText)
        return ExitCode(1)
    }

    /// Runs `body`, turning protocol errors into the contract's failure output.
    static func run(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as OIDCError {
            throw failure(code: error.code.description, message: error.reason)
        } catch let error as SAMLError {
            throw failure(code: error.code.description, message: error.reason)
        } catch let error as TokenCacheError {
            throw failure(code: error.code.description, message: error.reason)
        } catch let error as RightError {
            throw failure(code: error.code.description, message: error.reason)
        } catch let error as ProfileError {
            throw failure(error)
        } catch let error as DevIdPError {
            throw failure(code: error.code.description, message: error.reason)
        } catch let error as ServeError {
            throw failure(code: error.code.description, message: error.message)
        } catch let error as ProxyError {
            throw failure(code: error.code.description, message: error.reason)
        } catch let error as CLIFailure {
            throw failure(code: error.code, message: error.message)
        } catch let error as HTTPTransportError {
            throw failure(code: error.code.description, message: error.reason)
        } catch let error as ValidationError {
            throw error
        } catch let error as ExitCode {
            throw error
        } catch {
            // Anything else (a file-system error, say) is still reported in the contract's JSON shape.
            throw failure(code: "internal_error", message: "unexpected \(type(of: error))")
        }
    }
}

/// A failure of the CLI's own (no cached session, unreadable cache, ...).
struct CLIFailure: Error {
    let code: String
    let message: String
}
