/// Pages of our own in each platform's real markup (its class names, attributes, URL shapes and
/// date formats as the captures in `../shared/realworld/platforms` show them), with our own words.
enum PlatformPages {
    /// Campus Suite's alert banner widget with one alert up (class names as the platform writes them).
    static let campusSuite = """
        <!DOCTYPE html><html><head><title>Hardin School District 17H&amp;1 | Home</title>
        <script>window.CAMPUSSUITE = {"siteId": 7};</script></head><body>
        <div data-cms-widget="widgets/AlertBanner/AlertBanner" id="cms-widget-18040258-11f4-45d2-9fef-a118c8f0f294">
        <div class="cs-alert-banner"><div class="cs-alert-banner__item cs-alert-banner__item--urgent">
        <p class="cs-alert-banner__msg"><a href="/alert/1610039/school-closure-wednesday-dec-21st-2022">School Closure Wednesday, Dec. 21st 2022</a></p>
        </div></div>
        <div class="cs-alert-banner__modals"><div class="cs-alert-modal" data-popup="1610039-1671580800">
        <h1 class="modal-title">School Closure Wednesday, Dec. 21st 2022</h1><p>Extreme cold is expected overnight.</p></div></div>
        </div><main><h1>Welcome</h1></main></body></html>
        """

    /// A SchoolBlocks page: the organization's alerts in a pushed Next.js record.
    static let schoolBlocks = #"""
        <!DOCTYPE html><html><head><title>Home - Grace School District #148</title></head><body><div id="__next"></div>
        <script>self.__next_f.push([1,"1:HL[\"/_next/static/css/app.css\",\"style\"]\n"])</script>
        <script>self.__next_f.push([1,"5:[\"$\",\"div\",null,{\"organization\":{\"name\":\"Grace School District\"},\"alerts\":[{\"id\":28295,\"message\":\"\u003cp\u003eGrace School District will be closed from September 11-October 4 for potato harvest break.\u003c/p\u003e\",\"type\":\"overlay\"}]}]\n"])</script>
        </body></html>
        """#

    /// An Edlio homepage with its homepage alert up (the dialog the page opens on load).
    static let edlio = """
        <!DOCTYPE html><html><head><title>Mission CISD</title><meta name="generator" content="Edlio CMS"></head><body>
        <article id="homepage_news_alert_modal" class="mfp-hide cf" itemscope itemtype="http://schema.org/Article">
        <div id="image-content" class="image-content"><img alt="Snow" src="/pics/snow.jpg"></div>
        <div id="article-content" class="article-content"><header class="cf"><h2 class="title" itemprop="name headline">Weather Advisory</h2></header>
        <div class="summary cf"><p>No School - Jan 21, 2025<br>Delayed Start - Jan 22, 2025</p></div>
        <div class="buttons cf"><div class="read-more"><a href="/apps/news/article/2020301">Read full story</a></div></div></div>
        </article><div id="content"><p>Welcome to our district.</p></div></body></html>
        """

    /// Web Community Manager's important-announcements module with two announcements.
    static let webCommunityManager = """
        <!DOCTYPE html><html><head><title>Osceola County Schools / Homepage</title></head><body>
        <div class="cs-important-announcements-outer" data-pmi-id="45526" data-mi-id="38589"><div class="cs-important-announcements">
        <ul class="cs-important-announcements-list">
        <li class="cs-important-announcement" data-flex-id="81812"><i class="cs-important-announcement-icon library" data-icon="Weather/12.png"></i>
        <div class="cs-important-announcement-text"><h2><a href="https://www.district.example//site/default.aspx?PageType=3&amp;DomainID=4&amp;FlexDataID=90006&amp;PageID=1">Schools Closed Friday, October 10</a></h2></div></li>
        <li class="cs-important-announcement" data-flex-id="81813">
        <div class="cs-important-announcement-text"><p><strong>Meal sites open&nbsp;Saturday</strong></p></div></li>
        </ul></div></div></body></html>
        """

    /// A district's own template: a red banner slot, marked by the template's comment.
    static let redBanner = """
        <!DOCTYPE html><html><body><title>Pasco County Schools</title><!-- Red emergency banner -->
        <div class="container-fluid pcs_hp_rect" style="background-color: #b81933; color: white"><div class="row"><div class="col-12 pcs_white_text">
        <p>All schools will open two hours late on Tuesday, January 20.</p></div></div></div>
        <div class="container-fluid news"><p>Welcome back, students.</p></div></body></html>
        """

    /// Finalsite's page-pops answer: a hidden collection of pop-ups with their times.
    static let pagePops = """
        <div id="fsPagePopCollection" hidden><article class="fsPagePop" data-delay-option="" data-delay-time="5" data-id="21" data-reset-at=""
        data-visible-at="2026-11-20T07:00:00-06:00" data-hidden-at="2026-11-21T15:00:00-06:00">
        <h2 id="fsPagePopTitle_21" class="fsPagePopTitle fsDialogTitle">Early Release Friday</h2>
        <div id="fsPagePopMessage_21" class="fsPagePopMessage"><p>All schools release at 12:30 p.m. Friday.</p></div></article></div>
        """

    /// Sparq Meetings / BoardBook: one table, the date, time and name in one cell's first line.
    static let sparq = """
        <!DOCTYPE html><html><head><title>BoardBook Premier</title></head><body><main id="MainPage">
        <h2>Saint Paul Public Schools Meetings</h2><table class="table table-striped" id="PublicMeetingsTable"><thead><tr class="header">
        <th>Meeting</th><th>Meeting Location</th><th>Details</th></tr></thead><tbody>
        \(sparqRow("row-for-board", "May 5, 2026 at 4:30 PM - Committee", "Regular", 743647))
        \(sparqRow("row-for-board", "April 21, 2026 at 5:30 PM - Regular", "Regular", 738131))
        \(sparqRow("row-for-unit-177 row-for-unit", "April 14, 2026 at 4:30 PM - Finance Committee", "Regular", 737193))
        \(sparqRow("row-for-board", "Cancelled August 26, 2025 at 6:05 PM - Special", "Special", 601122))
        </tbody></table></main></body></html>
        """

    static func sparqRow(_ classes: String, _ line: String, _ type: String, _ id: Int) -> String {
        """
        <tr class=" \(classes)"><td><div>
                \(line)
            </div><div class="margin-top-10"><b class="important-page-text">Meeting Type:</b>
        \(type)</div></td>
        <td><div><span id='location11649-\(id)-description'>Administration Building</span><br /><span id='location11649-\(id)-line1'>360 Colborne Street</span></div></td>
        <td class="nowrap"><ul class="list-unstyled"><li><a href="/Public/Agenda/1810?meeting=\(id)">Agenda</a></li></ul></td></tr>
        """
    }

    /// A page editor's table: the header row is bold cells, the date cell links the event.
    static let boldHeaderTable = """
        <!DOCTYPE html><html><head><title>Meetings – Newark Board of Education</title></head><body><div class="entry-content">
        <table width="748"><tbody>
        <tr><td width="166"><strong>Date</strong></td><td width="74"><strong>Time</strong></td><td width="114"><strong>Meeting</strong></td><td width="394"><strong>Location</strong></td></tr>
        <tr><td><a href="https://www.nps.example/events/nboe-retreat-05-20-2026/">May 20, 2026</a></td><td>9:00 a.m.</td><td>Retreat</td><td>Virtual</td></tr>
        <tr><td><a href="https://www.nps.example/events/nboe-business-meeting-05-26-2026/">May 26, 2026</a></td><td>6:00 p.m.</td><td>Business</td><td>765 Broad Street</td></tr>
        <tr><td><a href="https://www.nps.example/events/nboe-regular-meeting-05-28-2026/">May 28, 2026</a></td><td>6:00 p.m.</td><td>Regular</td><td>333 Clinton Place</td></tr>
        </tbody></table></div></body></html>
        """

    /// A WordPress event post whose only machine time is its "add to Google Calendar" link.
    static let googleLinkEvent = """
        <!DOCTYPE html><html><head><title>NBOE Retreat</title><link rel="canonical" href="https://www.nps.example/events/nboe-retreat-05-20-2026/"></head>
        <body class="event-template-default single single-event postid-190123"><h1 class="entry-title">NBOE Retreat</h1>
        <div class="entry-content"><p>Watch: Join via Webex</p>
        <a href="https://www.google.com/calendar/event?action=TEMPLATE&#038;text=NBOE+Retreat&#038;dates=20260520T090000/20260520T120000&#038;details=Retreat&#038;location=&#038;ctz=America%2FNew_York" target="_blank">+ Google Calendar</a>
        </div></body></html>
        """

    /// Web Community Manager's calendar RSS: each title starts with its date and times.
    static let calendarRSS = """
        \u{FEFF}<?xml version="1.0" encoding="utf-8"?><?xml-stylesheet type="text/xsl" href="/Static/GlobalAssets/rss.xsl"?><rss version="2.0"><channel>
        <title>Board of Education Calendar</title><link>https://www.district.example/site/default.aspx?PageID=1</link>
        <item><title>9/26/2026 4:00 PM - 6:00 PM Curriculum and Instruction Committee</title><link>https://www.district.example/site/Default.aspx?PageID=1&amp;EventDateID=73502</link><pubDate>Sat, 26 Sep 2026 21:00:00 GMT</pubDate></item>
        <item><title>10/1/2026 3:00 PM - 5:00 PM Facilities Committee</title><link>https://www.district.example/site/Default.aspx?PageID=1&amp;EventDateID=73503</link><pubDate>Thu, 01 Oct 2026 20:00:00 GMT</pubDate></item>
        <item><title>10/22/2026 10:00 AM - 2:00 PM Regular Board Meeting</title><link>https://www.district.example/site/Default.aspx?PageID=1&amp;EventDateID=73504</link><pubDate>Thu, 22 Oct 2026 15:00:00 GMT</pubDate></item>
        </channel></rss>
        """

    /// The same platform's news RSS: titles are headlines, not dates.
    static let newsRSS = """
        <?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>District News</title><link>https://www.district.example/</link>
        <item><title>Bond results are in</title><link>https://www.district.example/site/Default.aspx?PageID=1&amp;FlexDataID=1</link><guid>n1</guid><pubDate>Wed, 04 Nov 2026 15:00:00 GMT</pubDate></item>
        <item><title>Snow day make-up plan</title><link>https://www.district.example/site/Default.aspx?PageID=1&amp;FlexDataID=2</link><guid>n2</guid><pubDate>Mon, 02 Nov 2026 15:00:00 GMT</pubDate></item>
        </channel></rss>
        """

    /// A Nuxt 2 site: the page's state in `window.__NUXT__`'s function literal.
    static let nuxt2 = """
        <!DOCTYPE html><html><head><title>Calendar</title></head><body><div id="__nuxt"><div id="__layout"><main></main></div></div>
        <script>window.__NUXT__=(function(a,b,c,d,e){return {layout:"default",data:[{events:[{title:"Board Meeting",start_date:"2026-10-06T18:00:00-05:00",location:b},
        {title:c,start_date:d,location:b},{title:"Picture Day",start_date:"2026-10-14",location:e}]}],error:a,serverRendered:!0}}(null,"District Office","Fall Concert","2026-10-09T19:00:00-05:00","Gym"));</script>
        <script src="/_nuxt/app.js" defer></script></body></html>
        """

    /// A board page's year of meetings: one paragraph, a line each, cut by `<br>`.
    static let brLines = """
        <!DOCTYPE html><html><head><title>Board Meetings | Cedar Ridge Schools</title></head><body><div id="content">
        <h1>Board of Education Meetings</h1><p>All meetings are held at the Administration Building.</p>
        <p>September 8, 2026 – Regular Board Meeting, 6:00 p.m.<br>
        September 22, 2026 – Work Session, 5:30 p.m.<br>
        October 13, 2026 – Regular Board Meeting, 6:00 p.m.<br>
        October 27, 2026 – Budget Hearing, 6:00 p.m.</p></div></body></html>
        """

    /// A Next.js app-router page: an analytics script first, then the state pushed in strings.
    static let nextPushes = #"""
        <!DOCTYPE html><html><head><title>Events</title><script>window.dataLayer = window.dataLayer || [];</script></head><body><div id="__next"></div>
        <script>self.__next_f.push([1,"1:HL[\"/_next/static/css/app.css\",\"style\"]\n"])</script>
        <script>self.__next_f.push([1,"6:{\"events\":[{\"title\":\"Board Meeting\",\"startDate\":\"2026-10-06T18:00:00-05:00\"},{\"title\":\"Fall Concert\",\"startDate\":\"2026-10-09T19:00:00-05:00\"},{\"title\":\"Picture Day\",\"startDate\":\"2026-10-14\"}]}\n"])</script>
        </body></html>
        """#

    /// Granicus's ViewPublisher archive: a dated table per year, links to agendas and minutes.
    static let granicus = """
        <!DOCTYPE html><html><head><title>Las Cruces Public Schools - Video</title></head><body><div class="archive">
        <table class="listingTable" id="archive"><thead><tr><th class="Name listHeader" scope="col">Name</th><th class="Date listHeader" scope="col">Date</th>
        <th class="Duration listHeader" scope="col">Duration</th><th class="Agenda listHeader" scope="col">Agenda</th><th class="Minutes listHeader" scope="col">Minutes</th></tr></thead><tbody>
        \(granicusRow("Board of Education", "Mar&nbsp;24,&nbsp;2026 - 05:33&nbsp;PM", 281))
        \(granicusRow("Finance Subcommittee", "Mar&nbsp;12,&nbsp;2026 - 09:26&nbsp;AM", 280))
        \(granicusRow("Budget Town Hall Meeting", "Mar&nbsp;&nbsp;5,&nbsp;2026 - 06:18&nbsp;PM", 279))
        </tbody></table></div></body></html>
        """

    static func granicusRow(_ name: String, _ date: String, _ clip: Int) -> String {
        """
        <tr class="listingRow"><td class="listItem" headers="Name" scope="row">\(name)</td><td class="listItem" headers="Date">\(date)</td>
        <td class="listItem">03h&nbsp;25m</td><td class="listItem"><a href="/AgendaViewer.php?view_id=1&clip_id=\(clip)">Agenda</a></td>
        <td class="listItem"><a href="/MinutesViewer.php?view_id=1&clip_id=\(clip)&doc_id=1.pdf">Minutes</a>
        <a href="/DocumentViewer.php?file=lcps_\(clip).pdf">Packet</a></td></tr>
        """
    }
}
