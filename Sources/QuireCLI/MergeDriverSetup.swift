import QuireCore
import QuireGit
import QuireKit

/// Registers quire's resolver as git's merge driver (QuireKit `MergeDriverRegistration`).
enum MergeDriverSetup {
    static func register(repository: Repository, vault: Vault) throws {
        try MergeDriverRegistration.register(repository: repository, vault: vault)
    }
}
