extension ConversationService {
    /// A title: trimmed, 1 to 100 characters, no control characters.
    public static func validTitle(_ title: String) throws(SwitchboardError) -> String {
        let trimmed = title.trimmed
        guard !trimmed.isEmpty, trimmed.count <= 100, !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw SwitchboardError(.invalid, code: "invalid_title", message: "A title is 1-100 characters, with no control characters.")
        }
        return trimmed
    }
}
