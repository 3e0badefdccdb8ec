import CTreeSitter

/// Text predicates attached to query patterns. tree-sitter parses them but
/// leaves evaluation to the host; we compile each pattern's predicates once,
/// when the query is loaded, and evaluate them on node text per match.
///
/// Supported: `#eq?`, `#not-eq?`, `#match?`, `#not-match?`, `#any-of?`,
/// `#not-any-of?`. Anything else (`#is-not? local`, `#set!`, …) is ignored,
/// which is the same as treating it as true: `#is-not? local` needs a scope
/// analysis we do not run, and `#set!` only attaches metadata.
enum Predicate: Sendable {
    case equalText(capture: UInt32, text: [UInt8], negated: Bool)
    case equalCaptures(UInt32, UInt32, negated: Bool)
    case match(capture: UInt32, matcher: TextMatcher, negated: Bool)
    case anyOf(capture: UInt32, words: Set<[UInt8]>, negated: Bool)

    /// The predicates of every pattern of `query`, indexed by pattern.
    static func compile(for query: OpaquePointer, regexes: RegexCache) -> [[Predicate]] {
        let patternCount = ts_query_pattern_count(query)
        var result: [[Predicate]] = []
        result.reserveCapacity(Int(patternCount))
        for pattern in 0..<patternCount {
            var stepCount: UInt32 = 0
            guard let steps = ts_query_predicates_for_pattern(query, pattern, &stepCount), stepCount > 0 else {
                result.append([])
                continue
            }
            var predicates: [Predicate] = []
            var current: [TSQueryPredicateStep] = []
            for index in 0..<Int(stepCount) {
                let step = steps[index]
                if step.type == TSQueryPredicateStepTypeDone {
                    if let predicate = make(from: current, query: query, regexes: regexes) {
                        predicates.append(predicate)
                    }
                    current.removeAll(keepingCapacity: true)
                } else {
                    current.append(step)
                }
            }
            result.append(predicates)
        }
        return result
    }

    private static func make(
        from steps: [TSQueryPredicateStep], query: OpaquePointer, regexes: RegexCache
    ) -> Predicate? {
        guard let first = steps.first, first.type == TSQueryPredicateStepTypeString else { return nil }
        func string(_ step: TSQueryPredicateStep) -> String? {
            guard step.type == TSQueryPredicateStepTypeString else { return nil }
            var length: UInt32 = 0
            guard let pointer = ts_query_string_value_for_id(query, step.value_id, &length) else { return nil }
            let bytes = UnsafeRawBufferPointer(start: pointer, count: Int(length))
            return String(decoding: bytes, as: UTF8.self)
        }
        func capture(_ step: TSQueryPredicateStep) -> UInt32? {
            step.type == TSQueryPredicateStepTypeCapture ? step.value_id : nil
        }
        guard let name = string(first) else { return nil }
        let arguments = steps.dropFirst()
        switch name {
        case "eq?", "not-eq?":
            guard arguments.count == 2, let subject = capture(arguments[arguments.startIndex]) else { return nil }
            let other = arguments[arguments.startIndex + 1]
            let negated = name == "not-eq?"
            if let otherCapture = capture(other) {
                return .equalCaptures(subject, otherCapture, negated: negated)
            }
            guard let text = string(other) else { return nil }
            return .equalText(capture: subject, text: Array(text.utf8), negated: negated)
        case "match?", "not-match?":
            guard arguments.count == 2, let subject = capture(arguments[arguments.startIndex]),
                let pattern = string(arguments[arguments.startIndex + 1])
            else { return nil }
            return .match(capture: subject, matcher: regexes.matcher(for: pattern), negated: name == "not-match?")
        case "any-of?", "not-any-of?":
            guard arguments.count >= 2, let subject = capture(arguments[arguments.startIndex]) else { return nil }
            var words = Set<[UInt8]>()
            for step in arguments.dropFirst() {
                guard let word = string(step) else { return nil }
                words.insert(Array(word.utf8))
            }
            return .anyOf(capture: subject, words: words, negated: name == "not-any-of?")
        default:
            return nil
        }
    }

    /// Whether the predicate holds for `match`. When a capture is quantified
    /// and appears several times, every node must satisfy it.
    func holds(for match: TSQueryMatch, in source: UnsafeBufferPointer<UInt8>) -> Bool {
        switch self {
        case .equalText(let capture, let text, let negated):
            return Predicate.allNodes(of: capture, in: match) { node in
                Predicate.text(of: node, in: source).elementsEqual(text) != negated
            }
        case .equalCaptures(let first, let second, let negated):
            guard let left = Predicate.firstNode(of: first, in: match),
                let right = Predicate.firstNode(of: second, in: match)
            else { return true }
            let equal = Predicate.text(of: left, in: source).elementsEqual(Predicate.text(of: right, in: source))
            return equal != negated
        case .match(let capture, let matcher, let negated):
            return Predicate.allNodes(of: capture, in: match) { node in
                matcher.matches(UnsafeBufferPointer(rebasing: Predicate.text(of: node, in: source))) != negated
            }
        case .anyOf(let capture, let words, let negated):
            return Predicate.allNodes(of: capture, in: match) { node in
                words.contains(Array(Predicate.text(of: node, in: source))) != negated
            }
        }
    }

    private static func text(of node: TSNode, in source: UnsafeBufferPointer<UInt8>) -> Slice<UnsafeBufferPointer<UInt8>> {
        let start = min(Int(ts_node_start_byte(node)), source.count)
        let end = min(max(Int(ts_node_end_byte(node)), start), source.count)
        return source[start..<end]
    }

    private static func allNodes(of capture: UInt32, in match: TSQueryMatch, _ test: (TSNode) -> Bool) -> Bool {
        for index in 0..<Int(match.capture_count) where match.captures[index].index == capture {
            if !test(match.captures[index].node) { return false }
        }
        return true
    }

    private static func firstNode(of capture: UInt32, in match: TSQueryMatch) -> TSNode? {
        for index in 0..<Int(match.capture_count) where match.captures[index].index == capture {
            return match.captures[index].node
        }
        return nil
    }
}
