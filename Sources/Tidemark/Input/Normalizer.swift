// STUB
enum Normalizer {
    static func normalize(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8] { Array(input) }
}
