import Foundation
import TestSupport

/// Sites in the public markup of the platforms the bundled recognizers know: their class
/// names, script hosts and address shapes, each with a home page, listings and an answer key.
enum PlatformSites {
    static func all(_ base: String) -> [FixtureSite] { [finalsite(base), edlio(base), blackboard(base), wordpress(base), drupal(base)] }

    // MARK: Finalsite

    static func finalsite(_ base: String) -> FixtureSite {
        var site = FixtureSite(name: "Finalsite")
        let head =
            #"<link rel="stylesheet" href="https://resources.finalsite.net/min/styles.css"><script"#
            + #" src="https://resources.finalsite.net/min/scripts.js"></script>"#
        let nav =
            #"<li><a href="/news">News</a></li><li><a href="/calendar">Calendar</a></li><li><a href="/board/meeting-materials">Board"#
            + #" Documents</a></li><li><a href="/about">About Us</a></li>"#
        site.pages["/"] = Sample.page(
            title: "Home - Cedar Ridge Schools", head: head,
            body:
                #"<div class="fsElement fsContent" id="fsEl_1001"><div class="fsElementContent"><h2>Welcome to Cedar Ridge</h2><p>Every student,"#
                + #" every day.</p></div></div>"#,
            nav: nav)
        let posts = Sample.news.enumerated().map { index, item in
            """
            <article class="fsStyleAutoclear fsBoard-12" data-post-id="\(4100 + index)">
              <div class="fsTitle"><a class="fsPostLink" href="/news/~post/\(item.slug)">\(item.title)</a></div>
              <div class="fsDate"><time datetime="\(item.day)T08:00:00\(Sample.offset(item.day))">\(Sample.long(item.day))</time></div>
              <div class="fsSummary"><p>\(item.summary)</p></div>
            </article>
            """
        }.joined(separator: "\n")
        site.pages["/news"] = Sample.page(
            title: "News - Cedar Ridge Schools", head: head,
            body: #"<div class="fsElement fsPostElement fsList" id="fsEl_2040"><div class="fsElementContent"><div class="fsListItems">"# + posts
                + "</div></div></div>", nav: nav)
        site.keys["/news"] = Sample.newsKeys { "\(base)/news/~post/\($0)" }
        let days = Sample.events.enumerated().map { index, event in
            let day = Int(event.day.suffix(2)) ?? 1
            let time =
                event.time.map { t in
                    #"<div class="fsTimeRange"><time datetime="\#(event.day)T\#(t):00\#(Sample.offset(event.day))""#
                        + #" class="fsStartTime">\#(Sample.twelveHour(t))</time></div>"#
                } ?? #"<div class="fsTimeRange"><span class="fsAllDayEvent">All Day</span></div>"#
            let occur = "\(2200 + index)_\(event.day)T\(event.time ?? "00:00"):00Z_\(event.day)T23:00:00Z"
            return """
                <div class="fsCalendarDaybox fsStateHasEvents">
                  <div class="fsCalendarDate" data-day="\(day)"><span\
                 class="fsCalendarDay">\(Sample.weekdayLong(event.day).split(separator: ",")[0]),</span> \(day)</div>
                  <div class="fsCalendarInfo fsCalendarEvent">
                    <a class="fsCalendarTitle fsCalendarEventLink" title="\(event.title)" data-occur-id="\(occur)" href="#">\(event.title)</a>
                    \(time)
                    <div class="fsLocation">\(event.location)</div>
                  </div>
                </div>
                """
        }.joined(separator: "\n")
        site.pages["/calendar"] = Sample.page(
            title: "Calendar - Cedar Ridge Schools", head: head,
            body:
                #"<div class="fsElement fsCalendar" id="fsEl_2039"><div class="fsElementContent"><div class="fsCalendarEventGrid"><div class="fsCalendarRow">"#
                + days + "</div></div></div></div>", nav: nav)
        site.keys["/calendar"] = Sample.eventKeys({ _ in nil })
        let documents = ["Agenda", "Minutes", "Board Book", "Budget Presentation"].enumerated().map { index, label in
            #"<li><a href="/fs/resource-manager/view/00000000-0000-4000-8000-00000000000\#(index)">\#(label)</a></li>"#
        }.joined()
        site.pages["/board/meeting-materials"] = Sample.page(
            title: "Meeting Materials - Cedar Ridge Schools", head: head,
            body: #"<div class="fsElement fsContent"><div class="fsElementContent"><h2>November 10, 2026 Regular Meeting</h2><ul>"# + documents
                + "</ul></div></div>", nav: nav)
        site.keys["/board/meeting-materials"] = ["Agenda", "Minutes", "Board Book", "Budget Presentation"].enumerated().map { index, label in
            KeyItem(title: label, when: "", link: "\(base)/fs/resource-manager/view/00000000-0000-4000-8000-00000000000\(index)")
        }
        site.pages["/about"] = Sample.page(
            title: "About Us - Cedar Ridge Schools", head: head, body: "<div class=\"fsElement fsContent\"><p>Founded in 1921.</p></div>", nav: nav)
        return site
    }

    // MARK: Edlio

    static func edlio(_ base: String) -> FixtureSite {
        var site = FixtureSite(name: "Edlio")
        let nav =
            #"<li><a href="/apps/news/">News</a></li><li><a href="/apps/events/">Events</a></li><li><a"#
            + #" href="/apps/pages/index.jsp?uREC_ID=211&type=d">About</a></li>"#
        let footer = #"<div class="edlio-logo"><a href="https://www.edlio.com" title="Powered by Edlio">Powered by Edlio</a></div>"#
        site.pages["/"] = Sample.page(title: "Northfield Unified", body: "<h1>Northfield Unified</h1>" + footer, nav: nav)
        let items = Sample.news.enumerated().map { index, item in
            #"<li class="news-item"><a class="news-title" href="/apps/news/article/\#(1_649_200 + index)">\#(item.title)</a> <span"#
                + #" class="news-date">\#(Sample.long(item.day))</span><p class="news-summary">\#(item.summary)</p></li>"#
        }.joined()
        site.pages["/apps/news/"] = Sample.page(
            title: "News | Northfield Unified", body: #"<h1>News</h1><ul class="news-list">"# + items + "</ul>" + footer, nav: nav)
        site.keys["/apps/news/"] = Sample.news.indices.map { index in
            KeyItem(title: Sample.news[index].title, when: Sample.news[index].day, link: "\(base)/apps/news/article/\(1_649_200 + index)")
        }
        let events = Sample.events.enumerated().map { index, event in
            let time = event.time.map(Sample.twelveHour) ?? "All Day"
            return """
                <h2 class="day-title">\(Sample.weekdayLong(event.day))</h2>
                <div class="calendar-event" data-id="\(88_100 + index)"><a class="event-name"\
                 href="/apps/events/\(event.day.replacingOccurrences(of: "-", with: "/"))/\(88_100 + index)/">\(event.title)</a>
                <span class="event-time">\(time)</span><span class="event-location">\(event.location)</span></div>
                """
        }.joined(separator: "\n")
        site.pages["/apps/events/"] = Sample.page(
            title: "Events | Northfield Unified", body: "<h1>Events</h1><div class=\"calendar-list\">" + events + "</div>" + footer, nav: nav)
        site.keys["/apps/events/"] = Sample.eventKeys { index in
            "\(base)/apps/events/\(Sample.events[index].day.replacingOccurrences(of: "-", with: "/"))/\(88_100 + index)/"
        }
        site.pages["/apps/pages/index.jsp"] = Sample.page(
            title: "About | Northfield Unified", body: "<p>Our district serves 4,000 students.</p>" + footer, nav: nav)
        return site
    }

    // MARK: Blackboard Web Community Manager

    static func blackboard(_ base: String) -> FixtureSite {
        var site = FixtureSite(name: "Blackboard Web Community Manager")
        let head = #"<script src="/Static/GlobalAssets/Scripts/min/sri-schoolwires.min.js"></script>"#
        let nav =
            #"<li><a href="/site/Default.aspx?PageID=1">Home</a></li><li><a href="/site/Default.aspx?PageID=52">District News</a></li><li><a"#
            + #" href="/site/Default.aspx?PageID=60">Upcoming Events</a></li>"#
        site.pages["/"] = Sample.page(
            title: "Maple Creek Schools / Homepage", head: head,
            body:
                #"<div class="ui-widget app content"><div class="ui-widget-detail"><p>Welcome!</p><img"#
                + #" src="/cms/lib/MC01000000/Centricity/Domain/4/logo.png" alt="Maple Creek logo"></div></div>"#,
            nav: nav)
        let headlines = Sample.news.enumerated().map { index, item in
            """
            <li><div class="ui-article"><h1 class="ui-article-title sw-calendar-block-title"><a href="/site/default.aspx?PageType=3&amp;\
            DomainID=4&amp;ModuleInstanceID=52&amp;ViewID=ed695a1c&amp;FlexDataID=\(7700 + index)&amp;PageID=52">\(item.title)</a></h1>
            <span class="ui-article-date">\(Sample.long(item.day))</span><p class="ui-article-description">\(item.summary)</p></div></li>
            """
        }.joined()
        let newsPage = Sample.page(
            title: "Maple Creek Schools / District News", head: head,
            body:
                #"<div class="ui-widget app headlines"><div class="ui-widget-header"><h1>Headlines &amp; Features</h1></div><div"#
                + #" class="ui-widget-detail"><ul class="ui-articles">"#
                + headlines + "</ul></div></div>", nav: nav)
        let events = Sample.events.enumerated().map { index, event in
            let compact = event.day.replacingOccurrences(of: "-", with: "")
            let time = event.time.map { Sample.twelveHour($0) } ?? "All Day"
            return """
                <li><h1 class="sw-calendar-block-date">\(Sample.weekdayLong(event.day))</h1>
                <div class="ui-article"><div class="ui-article-description"><span class="sw-calendar-block-time">\(time)</span>
                <span class="sw-calendar-block-title"><a href="/site/Default.aspx?PageID=60&amp;\
                DomainID=4#calendar60/\(compact)/event/\(9300 + index)">\(event.title)</a></span></div></div></li>
                """
        }.joined()
        let eventsPage = Sample.page(
            title: "Maple Creek Schools / Upcoming Events", head: head,
            body:
                #"<div class="ui-widget app upcomingevents"><div class="ui-widget-header"><h1>Upcoming Events</h1></div><div"#
                + #" class="ui-widget-detail"><ul class="ui-articles">"#
                + events
                + #"</ul></div><div class="ui-widget-footer"><a href="/site/handlers/icalfeed.ashx?MIID=60">Subscribe (iCal)</a></div></div>"#, nav: nav)
        site.pages["/site/Default.aspx?PageID=52"] = newsPage
        site.pages["/site/Default.aspx?PageID=60"] = eventsPage
        site.pages["/site/Default.aspx?PageID=1"] = site.pages["/"]
        site.keys["/site/Default.aspx?PageID=52"] = Sample.news.indices.map { index in
            KeyItem(
                title: Sample.news[index].title, when: Sample.news[index].day,
                link: "\(base)/site/default.aspx?PageType=3&DomainID=4&ModuleInstanceID=52&ViewID=ed695a1c&FlexDataID=\(7700 + index)&PageID=52")
        }
        site.keys["/site/Default.aspx?PageID=60"] = Sample.eventKeys(
            { index in
                "\(base)/site/Default.aspx?PageID=60&DomainID=4#calendar60/\(Sample.events[index].day.replacingOccurrences(of: "-", with: ""))/event/\(9300 + index)"
            }, locations: false)
        var ics = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Blackboard//Calendar//EN\r\nX-WR-TIMEZONE:America/Chicago\r\n"
        for (index, event) in Sample.events.enumerated() {
            let compact = event.day.replacingOccurrences(of: "-", with: "")
            let start = event.time.map { ";TZID=America/Chicago:\(compact)T\($0.replacingOccurrences(of: ":", with: ""))00" } ?? ";VALUE=DATE:\(compact)"
            ics +=
                "BEGIN:VEVENT\r\nUID:wcm-\(9300 + index)@maplecreek\r\nDTSTAMP:20261101T000000Z\r\nDTSTART\(start)\r\nSUMMARY:\(event.title)\r\nLOCATION:\(event.location)\r\nEND:VEVENT\r\n"
        }
        ics += "END:VCALENDAR\r\n"
        site.other["/site/handlers/icalfeed.ashx?MIID=60"] = TestHTTPServer.Response(
            status: 200, headers: ["Content-Type": "text/calendar; charset=utf-8"], body: Data(ics.utf8))
        site.keys["/site/handlers/icalfeed.ashx?MIID=60"] = Sample.eventKeys { _ in nil }
        return site
    }

    // MARK: WordPress

    static func wordpress(_ base: String) -> FixtureSite {
        var site = FixtureSite(name: "WordPress")
        let head =
            #"<meta name="generator" content="WordPress 6.6.2"><link rel="https://api.w.org/" href="\#(base)/wp-json/"><link rel="alternate""#
            + #" type="application/rss+xml" title="Valley Schools &raquo; Feed" href="\#(base)/feed/"><link rel="alternate""#
            + #" type="application/rss+xml" title="Valley Schools &raquo; Comments Feed" href="\#(base)/comments/feed/"><link"#
            + #" rel="stylesheet" href="\#(base)/wp-content/themes/valley/style.css">"#
        let nav = #"<li><a href="/news/">News</a></li><li><a href="/events/">Events</a></li>"#
        site.pages["/"] = Sample.page(title: "Valley Schools", head: head, body: "<h1>Valley Schools</h1>", nav: nav)
        site.pages["/news/"] = Sample.page(title: "News – Valley Schools", head: head, body: "<h1>News</h1>", nav: nav)
        let posts = Sample.news.enumerated().map { index, item -> String in
            #"{"id": \#(310 + index), "date": "\#(item.day)T08:00:00", "date_gmt": "\#(item.day)T13:00:00", "link": "\#(base)/\#(item.slug)/","#
                + #" "title": {"rendered": "\#(item.title)"}, "excerpt": {"rendered": "<p>\#(item.summary)<\/p>"}, "content": {"rendered":"#
                + #" "<p>\#(item.summary)<\/p>"}}"#
        }
        site.other["/wp-json/wp/v2/posts"] = TestHTTPServer.Response(
            status: 200, headers: ["Content-Type": "application/json"], body: Data(("[" + posts.joined(separator: ",") + "]").utf8))
        site.keys["/wp-json/wp/v2/posts"] = Sample.newsKeys { "\(base)/\($0)/" }
        let events = Sample.events.enumerated().map { index, event in
            let datetime = event.time.map { "\(event.day)T\($0):00\(Sample.offset(event.day))" } ?? event.day
            return """
                <div class="tribe-common-g-row tribe-events-calendar-list__event-row"><article class="tribe-events-calendar-list__event tribe_events\
                 type-tribe_events">
                <header class="tribe-events-calendar-list__event-header"><div class="tribe-events-calendar-list__event-datetime-wrapper">
                <time class="tribe-events-calendar-list__event-datetime" datetime="\(datetime)"><span\
                 class="tribe-event-date-start">\(Sample.long(event.day))\(event.time.map { " @ " + Sample.twelveHour($0) } ?? "")</span></time></div>
                <h3 class="tribe-events-calendar-list__event-title"><a href="\(base)/event/\(index + 1)/"\
                 class="tribe-events-calendar-list__event-title-link">\(event.title)</a></h3>
                <address class="tribe-events-calendar-list__event-venue"><span\
                 class="tribe-events-calendar-list__event-venue-title">\(event.location)</span></address></header></article></div>
                """
        }.joined(separator: "\n")
        site.pages["/events/"] = Sample.page(
            title: "Events – Valley Schools", head: head, body: "<div class=\"tribe-events-calendar-list\">" + events + "</div>", nav: nav)
        site.keys["/events/"] = Sample.eventKeys { "\(base)/event/\($0 + 1)/" }
        return site
    }

    // MARK: Drupal

    static func drupal(_ base: String) -> FixtureSite {
        var site = FixtureSite(name: "Drupal")
        let head = #"<meta name="Generator" content="Drupal 10 (https://www.drupal.org)"><link rel="stylesheet" href="/sites/default/files/css/css_a1b2.css">"#
        let nav = #"<li><a href="/news">News</a></li><li><a href="/events">Events</a></li>"#
        site.pages["/"] = Sample.page(title: "Home | Lakeside Public Schools", head: head, body: "<h1>Lakeside Public Schools</h1>", nav: nav)
        let rows = Sample.news.map { item in
            """
            <div class="views-row"><div class="views-field views-field-title"><span class="field-content"><a href="/news/\(item.slug)"\
             hreflang="en">\(item.title)</a></span></div>
            <div class="views-field views-field-created"><span class="field-content"><time\
             datetime="\(item.day)T14:00:00Z">\(Sample.long(item.day))</time></span></div>
            <div class="views-field views-field-body"><div class="field-content">\(item.summary)</div></div></div>
            """
        }.joined()
        site.pages["/news"] = Sample.page(
            title: "News | Lakeside Public Schools", head: head,
            body: #"<div class="view view-news view-id-news view-display-id-page_1"><div class="view-content">"# + rows + "</div></div>", nav: nav)
        site.keys["/news"] = Sample.newsKeys { "\(base)/news/\($0)" }
        let events = Sample.events.enumerated().map { index, event in
            let start = event.time.map { "\(event.day)T\($0):00\(Sample.offset(event.day))" } ?? event.day
            return """
                <div class="views-row"><div class="views-field views-field-title"><span class="field-content"><a\
                 href="/events/\(index + 1)">\(event.title)</a></span></div>
                <div class="views-field views-field-field-date"><div class="field-content"><time datetime="\(start)">\(Sample.long(event.day))</time>\
                </div></div>
                <div class="views-field views-field-field-location"><div class="field-content">\(event.location)</div></div></div>
                """
        }.joined()
        site.pages["/events"] = Sample.page(
            title: "Events | Lakeside Public Schools", head: head,
            body: #"<div class="view view-events view-id-events view-display-id-page_1"><div class="view-content">"# + events + "</div></div>",
            nav: nav)
        site.keys["/events"] = Sample.eventKeys { "\(base)/events/\($0 + 1)" }
        return site
    }
}
