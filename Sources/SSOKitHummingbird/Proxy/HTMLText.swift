/// Text placed in HTML: `&`, `<`, `>`, `"` and `'` as character references, so that a value (a form field name
/// from an IdP, a URL) can go into text content or a double-quoted attribute without becoming markup.
public enum HTMLText {
    /// `text`, escaped.
    public static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
