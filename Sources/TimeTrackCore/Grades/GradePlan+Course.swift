import Foundation

extension GradePlan {
    /// A course's grade book from the store: each category the course weighs (`course add
    /// --weight test=40`) with the points earned and possible on its graded deadlines (those
    /// with a `score`) and the points of those still to come.
    ///
    /// Deadlines without points, or in a category the course does not weigh, cannot count;
    /// their positions in `deadlines` are returned so the caller can say which.
    public static func from(course: Course, deadlines: [Deadline]) -> (plan: GradePlan, withoutPoints: [Int], unweighted: [Int]) {
        var categories: [String: Category] = [:]
        for (name, weight) in course.weights where weight > 0 { categories[name] = Category(name: name, weight: weight) }
        var withoutPoints: [Int] = [], unweighted: [Int] = []
        for (index, deadline) in deadlines.enumerated() where deadline.course == course.code {
            guard let points = deadline.points, points > 0 else {
                withoutPoints.append(index)
                continue
            }
            guard var category = categories[deadline.category.rawValue] else {
                unweighted.append(index)
                continue
            }
            if let score = deadline.score {
                category.earned += score
                category.possible += points
            } else {
                category.remaining += points
            }
            categories[deadline.category.rawValue] = category
        }
        return (GradePlan(categories: categories.values.sorted { $0.name < $1.name }), withoutPoints, unweighted)
    }
}
