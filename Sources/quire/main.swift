import Foundation
import QuireCLI

let code = QuireCLI.main(arguments: Array(CommandLine.arguments.dropFirst()),
                         environment: ProcessInfo.processInfo.environment,
                         currentDirectory: FileManager.default.currentDirectoryPath)
exit(code)
