import Foundation

/// Which of the languages US districts publish most a text is in, by its most common words: a
/// text of 30 words or more whose share of another language's common words is at least twice
/// the district language's is that language.
enum LanguageGuess {
    static let common: [String: Set<String>] = [
        "English": ["the", "and", "of", "to", "in", "is", "for", "on", "with", "are", "will", "be", "at", "this", "our", "you", "your", "from", "that", "by"],
        "Spanish": ["el", "la", "de", "que", "y", "en", "los", "las", "del", "se", "para", "por", "con", "una", "es", "su", "sus", "al", "lo", "como"],
        "Vietnamese": ["và", "của", "các", "cho", "là", "được", "có", "trong", "với", "những", "học", "sinh", "một", "này", "để"],
        "French": ["le", "les", "des", "et", "est", "pour", "dans", "une", "sur", "avec", "que", "qui", "du", "au", "vous"],
    ]
    static let codes: [String: String] = ["en": "English", "es": "Spanish", "vi": "Vietnamese", "fr": "French"]

    /// The language the text is in when it is not the district's (`language`, a code like `en`).
    static func otherThan(_ language: String, _ text: String) -> String? {
        let words = text.lowercased().split { !$0.isLetter }.map(String.init)
        guard words.count >= 30, let own = codes[language], let ownWords = common[own] else { return nil }
        let ownShare = Double(words.filter(ownWords.contains).count) / Double(words.count)
        let best = common.filter { $0.key != own }.map { (name: $0.key, share: Double(words.filter($0.value.contains).count) / Double(words.count)) }.max {
            $0.share < $1.share
        }
        guard let best, best.share >= 0.15, best.share >= ownShare * 2 else { return nil }
        return best.name
    }
}
