// STUB
extension Document {
    /// Renders the document as HTML, byte for byte as cmark(-gfm) does.
    public func html(_ options: HTMLOptions = HTMLOptions()) -> String { "" }
}
