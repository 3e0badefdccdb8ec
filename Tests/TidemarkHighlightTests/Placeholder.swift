import Testing
@Test func placeholderHL() { #expect(Bool(true)) }
