import Foundation
import Tidemark
import TidemarkRender

/// The attributes Tidemark puts on an `AttributedString`: the run tree's
/// semantics, so a front end can style, hit-test and describe text without
/// going back to the run tree. Foundation's own `link` is set too, for
/// links the URL policy allowed.
///
///     for run in text.runs where run.tidemark.traits?.contains(.math) == true { … }
public struct TidemarkAttributes: AttributeScope {
    public let traits: RunTraitsAttribute
    public let linkInfo: LinkInfoAttribute
    public let tokenKind: TokenKindAttribute
    public let mathSource: MathSourceAttribute
    public let image: ImageAttribute
    public let footnote: FootnoteAttribute
    public let blockKind: BlockKindAttribute
    public let blockPath: BlockPathAttribute
    public let runStyle: RunStyleAttribute
    public let foundation: AttributeScopes.FoundationAttributes

    /// A run's traits (never set when empty).
    public enum RunTraitsAttribute: CodableAttributedStringKey {
        public typealias Value = RunTraits
        public static let name = "tidemark.traits"
    }

    /// A link's destination and title, as the run tree has them.
    public enum LinkInfoAttribute: CodableAttributedStringKey {
        public typealias Value = LinkInfo
        public static let name = "tidemark.link"
    }

    /// The token kind of highlighted code.
    public enum TokenKindAttribute: CodableAttributedStringKey {
        public typealias Value = TokenKind
        public static let name = "tidemark.token"
    }

    /// The TeX source of math (the text is its Unicode rendering).
    public enum MathSourceAttribute: CodableAttributedStringKey {
        public typealias Value = String
        public static let name = "tidemark.math"
    }

    /// An image shown as its alt text; its source is never fetched.
    public enum ImageAttribute: CodableAttributedStringKey {
        public typealias Value = ImageInfo
        public static let name = "tidemark.image"
    }

    /// The footnote a reference points to.
    public enum FootnoteAttribute: CodableAttributedStringKey {
        public typealias Value = FootnoteMark
        public static let name = "tidemark.footnote"
    }

    /// The kind of the innermost block the text belongs to.
    public enum BlockKindAttribute: CodableAttributedStringKey {
        public typealias Value = RenderedBlock.Kind
        public static let name = "tidemark.blockKind"
    }

    /// The containers around that block, outermost first (for example
    /// `[.quote, .list, .item]`): what a front end needs to indent and draw
    /// quote bars.
    public enum BlockPathAttribute: CodableAttributedStringKey {
        public typealias Value = [RenderedBlock.Kind]
        public static let name = "tidemark.blockPath"
    }

    /// The resolved theme style, which the front end maps to its fonts and
    /// colors for the current appearance.
    public enum RunStyleAttribute: CodableAttributedStringKey {
        public typealias Value = RunStyle
        public static let name = "tidemark.style"
    }
}

extension AttributeScopes {
    public var tidemark: TidemarkAttributes.Type { TidemarkAttributes.self }
}

extension AttributeDynamicLookup {
    public subscript<T: AttributedStringKey>(dynamicMember keyPath: KeyPath<TidemarkAttributes, T>) -> T {
        self[T.self]
    }
}
