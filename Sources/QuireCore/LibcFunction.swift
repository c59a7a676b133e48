#if canImport(Glibc)
import Glibc
#endif

/// A C library function the Swift Glibc module does not declare (`syncfs`, `renameat2`,
/// `fallocate`), looked up at run time; nil where the C library lacks it.
public enum LibcFunction {
    /// The function called `name`, as `type` (a `@convention(c)` function type).
    public static func named<Function>(_ name: String, as type: Function.Type) -> Function? {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0) /* RTLD_DEFAULT */, name) else { return nil }
        return unsafeBitCast(symbol, to: type)
    }
}
