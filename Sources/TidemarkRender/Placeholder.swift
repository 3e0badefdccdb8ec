public enum TidemarkRenderPlaceholder {}
