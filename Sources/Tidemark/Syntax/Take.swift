/// Moving arrays out of objects.

/// The value of `x`, leaving an empty one there: a move, where `let y = x;
/// x = []` retains and releases (scratch arrays taken out of an object for
/// the length of a call). Putting one back the same way, `swap`.
@inline(__always)
func take<T: RangeReplaceableCollection>(_ x: inout T) -> T {
    var r = T()
    swap(&r, &x)
    return r
}
