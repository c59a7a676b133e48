import Foundation

/// A list of fixed-size values the link table keeps (edge targets, kinds, starts, hashes…):
/// used in place where `links.bin` is mapped when the table is read (no copy: a command brings
/// in only the pages it reads), an array of its own from the first change on (an update copies
/// it then, once).
public struct LinkColumn<Element: BitwiseCopyable & Equatable>: RandomAccessCollection, MutableCollection,
    RangeReplaceableCollection, ExpressibleByArrayLiteral, Equatable, @unchecked Sendable {
    /// The values, when they are this list's own.
    private var owned: [Element] = []
    /// The values in a mapped file instead.
    private var mapped: FlatColumn<Element>?

    /// An empty list.
    public init() {}

    /// The list of `elements`.
    public init(arrayLiteral elements: Element...) { owned = elements }

    /// The list of `values`.
    init(_ values: [Element]) { owned = values }

    /// The values of `column`, used where they lie.
    init(mapped column: FlatColumn<Element>) { mapped = column }

    /// 0.
    public var startIndex: Int { 0 }

    /// The number of values.
    public var endIndex: Int { mapped?.count ?? owned.count }

    /// The value at `position`.
    public subscript(position: Int) -> Element {
        get {
            guard let mapped else { return owned[position] }
            precondition(position >= 0 && position < mapped.count, "link column index out of range")
            return mapped[position]
        }
        set {
            own()
            owned[position] = newValue
        }
    }

    /// Replaces the values in `subrange` with `newElements` (the list made its own first).
    public mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C)
        where C.Element == Element {
        own()
        owned.replaceSubrange(subrange, with: newElements)
    }

    /// Adds `value` at the end.
    public mutating func append(_ value: Element) {
        own()
        owned.append(value)
    }

    /// Room for `count` values.
    public mutating func reserveCapacity(_ count: Int) {
        own()
        owned.reserveCapacity(count)
    }

    /// Whether both lists hold the same values.
    public static func == (left: LinkColumn, right: LinkColumn) -> Bool {
        left.withUnsafeBytes { a in right.withUnsafeBytes { b in a.elementsEqual(b) } }
    }

    /// Calls `body` with the values' bytes, one after another.
    func withUnsafeBytes<T>(_ body: (UnsafeRawBufferPointer) -> T) -> T {
        if let mapped { return body(UnsafeRawBufferPointer(mapped.buffer)) }
        return owned.withUnsafeBytes(body)
    }

    /// Makes the values this list's own (before one changes).
    private mutating func own() {
        guard let column = mapped else { return }
        owned = Array(column.buffer)
        mapped = nil
    }
}
