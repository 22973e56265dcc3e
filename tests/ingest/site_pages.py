"""Web pages as sites save them: two articles, two site templates with their boilerplate.

The boilerplate is what real sites carry: a header with a search form and account links, a
menu of forty sections, breadcrumbs, share links, a sidebar with a newsletter box, the most
read stories and an advertisement, a "more from" block of teasers, a cookie notice and a
footer of links and legal text: more words than the article, and the same on every page.
"""

ARTICLE_HARBOUR = ("Harbour wall repairs approved after winter storms", [
    "The county council voted on Tuesday evening to fund the repair of the eastern harbour wall, which was breached in three places during the February storms. Engineers told the meeting that a further winter without repairs could undermine the fish market that stands behind the wall.",
    "The work will be carried out in two phases. The first, which begins in May, will rebuild the collapsed sections with granite facing stones recovered from the seabed by divers. The second phase, planned for the autumn, will add a concrete apron at the foot of the wall to break the force of the waves before they reach the masonry.",
    "Fishermen who use the harbour said they were relieved but worried about access during the works. The harbour master promised that at least two berths would stay open throughout, and that the slipway used by the lifeboat would not be closed for a single day.",
    "Councillors also asked for a survey of the western pier, which dates from the same period and was built by the same contractor. A report on its condition is expected before the end of the year, and the council has set aside a reserve in case it needs similar attention.",
    "Local historians welcomed the decision to reuse the original stones. The wall was first built in the eighteen-forties by a company of masons from the north of the county, and several of the facing blocks still carry the marks of the men who cut them.",
])

ARTICLE_LIBRARY = ("Village library to open on Sundays from next month", [
    "The library in the old school building will open on Sunday afternoons from the first of next month, after a trial during the summer holidays drew more visitors than any weekday. Volunteers from the parish will staff the desk so that no extra salaries are needed.",
    "The librarian said families were the largest group of Sunday visitors during the trial. Children came for the reading club and stayed to use the computers, while their parents browsed the local history shelves or read newspapers in the quiet room upstairs.",
    "A new collection of letters and photographs donated by the descendants of the village's first schoolteacher will be shown in the entrance hall. The letters describe the building of the railway station and the arrival of the first train, an event that brought the whole valley to the platform.",
    "The opening hours on weekdays will not change. The library board is still looking for volunteers who can give one afternoon a month, and asks anyone interested to leave their name at the desk or at the parish office beside the church.",
    "Next spring the board hopes to add an evening session for adult learners, with courses in family history research and in the use of the online catalogue of the county record office.",
])

NAV_A = ["Home", "News", "Local news", "County", "Politics", "Business", "Farming", "Fishing", "Weather",
         "Sport", "Football", "Rugby", "Cricket", "Sailing", "Results", "What's on", "Events", "Theatre",
         "Music", "Cinema", "Food and drink", "Property", "Jobs", "Motors", "Announcements", "Births",
         "Marriages", "Deaths", "Letters", "Opinion", "Columnists", "Photo galleries", "Video",
         "Subscribe", "E-edition", "Archive", "Contact us", "Advertise", "Puzzles", "Horoscopes"]
SIDEBAR_A = ["Most read this week",
    "Road closed for three weeks while bridge is strengthened",
    "School celebrates best exam results in a decade",
    "Planning inquiry into new housing estate opens",
    "Lifeboat crew rescue walkers cut off by the tide",
    "Market traders protest against parking charges",
    "Farm shop wins regional award for its cheeses",
    "Police appeal after break-ins at allotments",
    "Festival organisers announce headline band",
    "Bus route to the hospital to be restored",
    "Rugby club opens new clubhouse after fundraising"]
FOOTER_A = ["About the Courier", "Our history", "Editorial code of practice", "Complaints", "Corrections and clarifications",
            "Privacy notice", "Cookie policy", "Terms and conditions", "Accessibility", "Modern slavery statement",
            "Careers", "Newsletters", "Print subscriptions", "Digital subscriptions", "Place a notice",
            "Sitemap", "RSS feeds", "Help centre"]


MORE_A = [
    ("Ferry timetable changes for the winter", "The crossing to the islands will run twice a day from November, with an extra sailing on Fridays for the market."),
    ("Shop owners back plan for a late-night market", "Traders on the high street say evening opening in December could bring visitors back to the town centre."),
    ("Coastal path reopens after landslip repairs", "Walkers can again follow the cliff path between the two bays after engineers stabilised the slope."),
    ("Choir raises funds for new church roof", "A concert of carols and folk songs raised enough to start work on the north aisle before the spring."),
    ("Youth club given new home in the old fire station", "The building, empty for six years, will open in the new year with a games room, a kitchen and a music studio."),
    ("Anglers report record season for sea bass", "Members of the sea angling club say warmer water has brought more fish close to the shore than ever before."),
]


def page_site_a(title, paragraphs):
    """A local newspaper site: header, long menu, breadcrumbs, article, sidebar, footer."""
    nav = "".join(f'<li><a href="/{n.lower().replace(" ", "-")}/">{n}</a></li>' for n in NAV_A)
    side = f"<h3>{SIDEBAR_A[0]}</h3><ol>" + "".join(f'<li><a href="/news/{k}">{t}</a></li>' for k, t in enumerate(SIDEBAR_A[1:])) + "</ol>"
    foot = "".join(f'<li><a href="/{k}">{t}</a></li>' for k, t in enumerate(FOOTER_A))
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    more = "".join(f'<div class="teaser"><h4><a href="/more/{k}">{t}</a></h4><p>{x}</p></div>'
                   for k, (t, x) in enumerate(MORE_A))
    return f"""<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{title} | The Coastal Courier</title>
<script>window.dataLayer = [];</script><link rel="stylesheet" href="/main.css"></head>
<body><header class="site-header"><div class="logo"><a href="/">The Coastal Courier</a></div>
<p class="tagline">News, sport and community for the coast and the valleys since 1868</p>
<form class="search"><input type="search" placeholder="Search the Courier"><button>Search</button></form>
<div class="account"><a href="/login">Sign in</a> <a href="/subscribe">Subscribe from one pound a week</a></div>
<nav class="main-menu"><ul>{nav}</ul></nav></header>
<div class="breadcrumbs"><a href="/">Home</a> &gt; <a href="/news/">News</a> &gt; <a href="/news/local/">Local news</a></div>
<main><article class="story"><h1>{title}</h1><p class="byline">By our local government reporter</p>
<div class="story-body">{body}</div>
<div class="share">Share this story: <a href="#">Facebook</a> <a href="#">Twitter</a> <a href="#">E-mail</a> <a href="#">Print</a></div>
</article></main>
<aside class="sidebar"><div class="newsletter"><h3>Get the Courier in your inbox</h3><p>Sign up to our free daily newsletter for the top stories from the coast and the valleys, sent every morning at seven.</p><button>Sign up</button></div>
<div class="most-read">{side}</div>
<div class="advert"><p>Advertisement</p><p>Support local journalism. Subscribe today and read every story on any device, with the digital edition of the paper every morning.</p></div></aside>
<section class="more"><h3>More from the Courier</h3>{more}</section>
<div class="cookie-notice"><p>We use cookies to make this site work, to understand how you use it and to show you relevant advertising. You can accept all cookies or choose which ones to allow in your settings at any time.</p><button>Accept all</button> <button>Settings</button></div>
<footer class="site-footer"><ul>{foot}</ul>
<p>The Coastal Courier, Harbour Buildings, Quay Street. Registered in England and Wales. All content is copyright of Coastal Media Group Limited unless stated otherwise. Reproduction without permission is prohibited.</p>
<p>This website and its associated newspaper adhere to the Independent Press Standards Organisation's Editors' Code of Practice. If you have a complaint about editorial content, please contact the editor.</p></footer>
</body></html>"""


NAV_B = ["Start", "Our parish", "Parish council", "Meetings and minutes", "Councillors", "Planning applications",
         "Community", "Clubs and societies", "Village hall", "Church", "School", "Library", "Allotments",
         "Transport", "Bus timetables", "Waste and recycling", "Noticeboard", "Newsletter", "History",
         "Photo archive", "Walks", "Contact the clerk"]


def page_site_b(title, paragraphs):
    """A parish community site: a different template (tables of links, left column, footer)."""
    nav = "".join(f'<a class="navlink" href="/page/{k}">{n}</a><br>' for k, n in enumerate(NAV_B))
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    return f"""<html><head><title>Upper Valley Parish - {title}</title><style>body {{ font-family: serif }}</style></head>
<body><div id="top"><h2>Upper Valley Parish Community Website</h2><span>Serving the villages of the upper valley</span></div>
<div id="wrap"><div id="left"><div class="box"><h4>Menu</h4>{nav}</div>
<div class="box"><h4>Dates for your diary</h4><ul><li>Parish council meeting, first Monday of the month, village hall</li><li>Coffee morning every Thursday in the church room</li><li>Litter pick, last Saturday of the month, meet at the green</li><li>Mobile post office, Wednesdays at the shop car park</li></ul></div></div>
<div id="content"><div class="post"><h1 class="post-title">{title}</h1><div class="post-meta">Posted in Community news</div>
<div class="entry">{body}</div>
<p class="postmetadata">Filed under: <a href="/tag/news">News</a>, <a href="/tag/village">Village</a> | <a href="#comments">No comments</a></p></div></div></div>
<div id="footer"><p>Upper Valley Parish Council, The Clerk, Mill Cottage. Website maintained by volunteers. Contributions for the newsletter are welcome by the fifteenth of each month.</p>
<p><a href="/privacy">Privacy</a> | <a href="/accessibility">Accessibility statement</a> | <a href="/transparency">Transparency code</a> | <a href="/sitemap">Site map</a></p></div>
</body></html>"""


COMMENTS_C = [
    ("Margaret T.", "My grandfather worked on the last repairs in the fifties and always said the old stones were the best ones."),
    ("harbourwatcher", "Good news at last, but why did it take two winters? The council has known about the cracks for years."),
    ("Dave from the lifeboat", "Thanks to the harbour master for keeping the slipway open, it matters more than people realise."),
]
RECENT_C = ["Open gardens weekend raises record sum", "New bus shelter for the square",
            "Bell ringers celebrate a century", "Flower show results in full"]


def page_blog(title, paragraphs):
    """A community blog (WordPress-like): site header and menu, post meta, tags, share
    buttons, related posts, readers' comments with a reply form, widget sidebar, footer."""
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    menu = "".join(f'<li class="menu-item"><a href="/{k}/">{n}</a></li>'
                   for k, n in enumerate(["Home", "News", "Events", "Gallery", "About", "Contact"]))
    comments = "".join(
        f'<li class="comment"><article class="comment-body"><footer class="comment-meta"><b class="fn">{who}</b> '
        f'<time>12 March at 9:{k}5 am</time></footer><div class="comment-content"><p>{said}</p></div>'
        f'<div class="reply"><a class="comment-reply-link" href="#r{k}">Reply</a></div></article></li>'
        for k, (who, said) in enumerate(COMMENTS_C))
    recent = "".join(f'<li><a href="/p/{k}">{t}</a></li>' for k, t in enumerate(RECENT_C))
    return f"""<!DOCTYPE html><html lang="en-GB"><head><meta charset="UTF-8"><title>{title} &#8211; Quayside Voices</title>
<script src="/wp-includes/js/jquery.js"></script></head>
<body class="post-template-default single single-post">
<a class="skip-link screen-reader-text" href="#content">Skip to content</a>
<header id="masthead" class="site-header"><p class="site-title"><a href="/">Quayside Voices</a></p>
<p class="site-description">Stories from the harbour town, written by the people who live here</p>
<nav id="site-navigation" class="main-navigation"><ul id="primary-menu">{menu}</ul></nav></header>
<div id="content" class="site-content"><div id="primary" class="content-area"><main id="main" class="site-main">
<article class="post type-post status-publish"><header class="entry-header"><h1 class="entry-title">{title}</h1>
<div class="entry-meta">Posted on <time>11 March</time> by <a href="/author/jo">Jo Pengelly</a></div></header>
<div class="entry-content">{body}</div>
<footer class="entry-footer">Tags: <a href="/tag/harbour">harbour</a>, <a href="/tag/council">council</a>
<div class="sharedaddy"><h3>Share this:</h3><a href="#">Facebook</a> <a href="#">WhatsApp</a> <a href="#">Email</a></div></footer></article>
<div class="jp-relatedposts"><h3>Related</h3><p><a href="/p/9">Lifeboat day draws the crowds</a> Coxswain thanks the volunteers who made the open day possible.</p></div>
<div id="comments" class="comments-area"><h2 class="comments-title">3 thoughts on &ldquo;{title}&rdquo;</h2>
<ol class="comment-list">{comments}</ol>
<div id="respond" class="comment-respond"><h3 class="comment-reply-title">Leave a Reply</h3>
<form class="comment-form"><p class="comment-notes">Your email address will not be published. Required fields are marked *</p>
<textarea name="comment"></textarea><input type="submit" value="Post Comment"></form></div></div>
</main></div>
<aside id="secondary" class="widget-area"><section class="widget widget_search"><form><input type="search" placeholder="Search &hellip;"></form></section>
<section class="widget widget_recent_entries"><h2 class="widget-title">Recent Posts</h2><ul>{recent}</ul></section>
<section class="widget widget_text"><h2 class="widget-title">About this blog</h2><p>Quayside Voices is written by volunteers from the town. Send us your story and a photograph and we will publish it here.</p></section></aside></div>
<footer id="colophon" class="site-footer"><div class="site-info">&copy; Quayside Voices. Proudly powered by a content management system. Theme by a friendly designer.</div></footer>
</body></html>"""


def page_council(title, paragraphs, table):
    """A council's site (GOV-style): skip link, header with search, breadcrumbs, a side
    menu of the section, the page with a table of (label, value) rows, a feedback form and a
    footer of legal links."""
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    rows = "".join(f"<tr><td>{a}</td><td>{b}</td></tr>" for a, b in table)
    side = "".join(f'<li><a href="/roads/{k}">{n}</a></li>' for k, n in enumerate(
        ["Roads and transport", "Harbours and coast", "Flood defences", "Street lighting", "Report a pothole"]))
    legal = "".join(f'<li><a href="/{k}">{n}</a></li>' for k, n in enumerate(
        ["Accessibility statement", "Cookies", "Privacy notice", "Freedom of information", "Contact us"]))
    return f"""<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{title} - County Council</title></head>
<body><a href="#main-content" class="govuk-skip-link">Skip to main content</a>
<div class="cookie-banner"><p>We would like to use cookies to collect information about how you use our website.</p><button>Accept</button></div>
<header class="govuk-header" role="banner"><a href="/" class="govuk-header__link">County Council</a>
<form role="search"><label for="q">Search this site</label><input id="q"></form></header>
<div class="govuk-width-container"><nav class="govuk-breadcrumbs"><ol><li><a href="/">Home</a></li><li><a href="/roads">Roads and transport</a></li><li><a href="/roads/harbours">Harbours and coast</a></li></ol></nav>
<div class="govuk-grid-row"><div class="govuk-grid-column-one-third"><nav class="side-menu"><h2>In this section</h2><ul>{side}</ul></nav></div>
<main id="main-content" class="govuk-grid-column-two-thirds" role="main"><h1 class="govuk-heading-xl">{title}</h1>
{body}<h2>Timetable of the works</h2><table class="govuk-table"><thead><tr><th>Phase</th><th>When</th></tr></thead><tbody>{rows}</tbody></table>
<p class="last-updated">Last updated: 14 March</p>
<div class="feedback"><h2>Was this page useful?</h2><form><button>Yes</button> <button>No</button><a href="/report">Report a problem with this page</a></form></div></main></div></div>
<footer class="govuk-footer" role="contentinfo"><ul>{legal}</ul><p>All content is available under the Open Government Licence, except where otherwise stated. County Hall, Market Street.</p></footer>
</body></html>"""


HARBOUR_TABLE = [("Survey of the damaged sections", "March and April"), ("Rebuilding with granite facing", "May to July"),
                 ("Concrete apron at the foot of the wall", "September to November")]


REPORT = ("Annual report of the harbour trust", [
    ("h2", "The year in brief"),
    ("p", "The trust met eleven times during the year and received reports from the harbour master at every meeting. Income from berthing fees rose for the third year running."),
    ("ul", ["Eleven meetings of the full trust", "Two public consultations on the harbour wall", "One new trustee elected"]),
    ("h2", "Works"),
    ("p", "The eastern wall was breached in February. The trust asked the county council to fund the repairs and offered the stones it keeps in the yard."),
    ("ol", ["Emergency closure of the damaged berths", "Survey by the county engineers", "Repairs approved in March"]),
    ("h3", "Terms used in this report"),
    ("dl", [("Apron", "A concrete slab at the foot of a wall that breaks the force of the waves."), ("Berth", "A place where a boat is moored.")]),
    ("figure", "The eastern wall after the storm of the fourteenth of February"),
    ("p", "The full accounts can be read at the trust's office on weekday mornings, or see <a href=\"accounts.html\">the accounts</a> online."),
])


def document_page(title, parts):
    """A report saved as HTML (no site around it): headings, paragraphs, lists, a definition
    list, a figure with a caption. ``parts``: (kind, content) as in ``REPORT``."""
    html = [f"<h1>{title}</h1>"]
    for kind, content in parts:
        if kind in ("ul", "ol"):
            html.append(f"<{kind}>" + "".join(f"<li>{item}</li>" for item in content) + f"</{kind}>")
        elif kind == "dl":
            html.append("<dl>" + "".join(f"<dt>{a}</dt><dd>{b}</dd>" for a, b in content) + "</dl>")
        elif kind == "figure":
            html.append(f'<figure><img src="wall.jpg" alt=""><figcaption>{content}</figcaption></figure>')
        else:
            html.append(f"<{kind}>{content}</{kind}>")
    return ("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Report</title><style>h1 { font-size: 20pt }</style>"
            "</head><body>" + "\n".join(html) + "</body></html>")
