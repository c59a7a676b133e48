import Foundation
import QuireCLI

// A server that closes the connection mid-push must become an error, not kill the process:
// writes to a closed socket (or to a closed pipe, `quire list | head`) return EPIPE instead.
signal(SIGPIPE, SIG_IGN)
let code = QuireCLI.main(arguments: Array(CommandLine.arguments.dropFirst()),
                         environment: ProcessInfo.processInfo.environment,
                         currentDirectory: FileManager.default.currentDirectoryPath)
exit(code)
