import Tidemark

/// What a run of text *is*, independent of how a theme draws it.
public struct RunTraits: OptionSet, Sendable, Hashable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let strong = RunTraits(rawValue: 1 << 0)
    public static let emphasis = RunTraits(rawValue: 1 << 1)
    public static let strikethrough = RunTraits(rawValue: 1 << 2)
    /// Inline code (code-block lines carry a token kind instead).
    public static let code = RunTraits(rawValue: 1 << 3)
    /// A link whose destination the URL policy allows; see `Run.link`.
    public static let link = RunTraits(rawValue: 1 << 4)
    /// Math; `Run.math` holds the TeX source, `text` what is shown.
    public static let math = RunTraits(rawValue: 1 << 5)
    /// A footnote reference such as `[1]`; see `Run.footnote`.
    public static let footnoteReference = RunTraits(rawValue: 1 << 6)
    /// An inline image shown as its alt text; see `Run.image`.
    public static let image = RunTraits(rawValue: 1 << 7)
    /// Raw HTML shown as source text (`RenderOptions.rawHTML`).
    public static let html = RunTraits(rawValue: 1 << 8)

    /// Every trait with its JSON name, in encoding order.
    public static let named: [(trait: RunTraits, name: String)] = [
        (.strong, "strong"), (.emphasis, "emphasis"), (.strikethrough, "strikethrough"),
        (.code, "code"), (.link, "link"), (.math, "math"),
        (.footnoteReference, "footnoteReference"), (.image, "image"), (.html, "html"),
    ]

    /// The JSON names of the traits in this set, in a fixed order.
    public var names: [String] {
        Self.named.compactMap { contains($0.trait) ? $0.name : nil }
    }

    /// The trait with a JSON name, or `nil`.
    public init?(name: String) {
        guard let entry = Self.named.first(where: { $0.name == name }) else { return nil }
        self = entry.trait
    }
}

extension RunTraits: Codable {
    /// Encoded as an array of names, `["strong", "link"]`.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(names)
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        var traits: RunTraits = []
        for name in try c.decode([String].self) {
            guard let t = RunTraits(name: name) else {
                throw DecodingError.dataCorruptedError(in: c, debugDescription: "unknown run trait \(name)")
            }
            traits.insert(t)
        }
        self = traits
    }
}

/// Where a link goes. Only destinations the `URLPolicy` allows become links.
public struct LinkInfo: Sendable, Hashable, Codable {
    public var destination: String
    /// `nil` when the link has no title.
    public var title: String?

    public init(destination: String, title: String? = nil) {
        self.destination = destination
        self.title = title
    }
}

/// An image: its source is only ever shown or handed to the front end,
/// never fetched by the library.
public struct ImageInfo: Sendable, Hashable, Codable {
    /// The alt text, as plain text.
    public var alt: String
    public var source: String
    /// `nil` when the image has no title.
    public var title: String?

    public init(alt: String, source: String, title: String? = nil) {
        self.alt = alt
        self.source = source
        self.title = title
    }
}

/// The footnote a reference points to.
public struct FootnoteMark: Sendable, Hashable, Codable {
    /// 1-based, in order of first reference.
    public var number: Int
    /// The label as written, `[^label]`.
    public var label: String

    public init(number: Int, label: String) {
        self.number = number
        self.label = label
    }
}

/// A stretch of text with one meaning and one look.
///
/// Adjacent runs with the same traits, link, token and style are merged
/// when built; math, image and footnote runs are atomic and never merged.
public struct Run: Sendable, Hashable {
    public var text: String
    public var traits: RunTraits
    public var link: LinkInfo?
    public var image: ImageInfo?
    /// The TeX source of a math run (its `text` is the Unicode rendering
    /// when one exists, else this source).
    public var math: String?
    public var footnote: FootnoteMark?
    /// The token kind of a highlighted code line; `nil` for plain code and
    /// for text outside code blocks.
    public var token: TokenKind?
    public var style: RunStyle

    public init(text: String, traits: RunTraits = [], link: LinkInfo? = nil, image: ImageInfo? = nil,
                math: String? = nil, footnote: FootnoteMark? = nil, token: TokenKind? = nil, style: RunStyle) {
        self.text = text
        self.traits = traits
        self.link = link
        self.image = image
        self.math = math
        self.footnote = footnote
        self.token = token
        self.style = style
    }

    /// Whether `other` can be appended to this run's text: same meaning
    /// (hence same style) and not an atomic run.
    func canMerge(with other: Run) -> Bool {
        traits == other.traits && token == other.token && link == other.link
            && math == nil && other.math == nil && image == nil && other.image == nil
            && footnote == nil && other.footnote == nil && style == other.style
    }
}
