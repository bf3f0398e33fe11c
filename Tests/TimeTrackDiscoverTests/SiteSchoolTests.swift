import Foundation
import Testing

@testable import TimeTrackDiscover

/// Issue 45, point 6: the school a site is, from its title (the real captures' titles among them).
@Suite struct SiteSchoolTests {
    @Test(arguments: [
        ("Home - Lincoln High School", "lincoln-high-school"), ("Riverside Elementary | Home", "riverside-elementary"),
        ("Welcome to Cedar Ridge Middle School", "welcome-to-cedar-ridge-middle-school"),
    ])
    func aSchoolsSiteNamesIt(_ title: String, _ school: String) {
        #expect(Discovery.school(fromTitle: title) == school)
    }

    /// The districts of the corpus: no school, their items are district-wide.
    @Test(arguments: [
        "Home - Billings Public School", "Hardin School District 17H&1 | Hardin Public Schools 17-H&1", "Mission CISD",
        "Alachua County Public Schools / Homepage", "Home - Uinta County School District #1", "Natrona County School District 1",
    ])
    func aDistrictsSiteNamesNone(_ title: String) {
        #expect(Discovery.school(fromTitle: title) == nil)
    }
}
