public enum TidemarkHighlightPlaceholder {}
