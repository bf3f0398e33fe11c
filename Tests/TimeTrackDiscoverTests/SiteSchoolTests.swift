import Foundation
import Testing
import TimeTrackKit

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

/// The Diligent Community recognizer: by its addresses alone (the portal is a script's page).
@Suite struct DiligentRecognizerTests {
    @Test(arguments: [
        "https://dallasisd.community.highbond.com/Portal/", "https://tulsaschools.diligent.community/Portal/",
        "https://boonecountyil.community.diligentoneplatform.com/",
    ])
    func itsAddressesAreRecognized(_ address: String) throws {
        let recognizer = try #require(Recognizer.load(folder: nil).recognizers.first { $0.platform == "Diligent Community" })
        let document = try HTMLDocument(data: Data("<html><body><div id=\"app\"></div></body></html>".utf8), url: URL(string: address))
        #expect(recognizer.recognizes(document, markup: "", url: try #require(URL(string: address))) != nil)
        #expect(
            recognizer.siteTemplates.first?.definition["url"]?.stringValue == "{origin}/Services/MeetingsService.svc/meetings?from=2000-01-01&to=9999-12-31")
    }

    @Test func aDistrictSiteIsNotDiligent() throws {
        let recognizer = try #require(Recognizer.load(folder: nil).recognizers.first { $0.platform == "Diligent Community" })
        let address = try #require(URL(string: "https://www.dallasisd.org/board"))
        let document = try HTMLDocument(
            data: Data("<html><body><a href=\"https://dallasisd.community.highbond.com/Portal/\">Agendas</a></body></html>".utf8), url: address)
        #expect(recognizer.recognizes(document, markup: "", url: address) == nil)
    }
}
