/// The protected pictures the native apps of the demo fetch (tiny SVGs, made for the demo).
enum DemoImages {
    static let svg: [String: String] = [
        "burger": """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><path d="M8 30a24 18 0 0 1 48 0z" \
        fill="#d9a441"/><rect x="6" y="33" width="52" height="6" rx="3" fill="#6b3e26"/><rect x="8" y="41" \
        width="48" height="10" rx="5" fill="#d9a441"/></svg>
        """,
        "tacos": """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><path d="M6 46a26 26 0 0 1 52 0z" \
        fill="#f2c14e"/><path d="M14 44a18 16 0 0 1 36 0" fill="#5da130"/></svg>
        """,
    ]
}
