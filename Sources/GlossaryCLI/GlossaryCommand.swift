public enum GlossaryCommand {}
