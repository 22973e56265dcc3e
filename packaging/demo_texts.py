"""The prose of the demo collection (original text written for this project, free to reuse).

Each text is a list of (heading, paragraph) pairs or plain paragraphs; ``make_demo.py``
renders them into files of several formats and plants the edits that make near-duplicates.
Places and people are invented.
"""

from __future__ import annotations

MILL_TITLE = "The Restoration of Harwick Mill: Report to the Heritage Committee"

MILL = [
    ("", "Harwick Mill stands on the west bank of the river Esk, a little below the old "
     "packhorse bridge. The present building dates from 1794, although a mill on this site is "
     "recorded in a manorial survey of 1611. It ground corn for the surrounding farms until "
     "1932, when the last miller, Thomas Blackett, retired and the wheel was left to rot. For "
     "most of the last century the building served as a store for a builders' merchant, and "
     "by 2015 its roof had failed at the northern end."),
    ("Survey", "In the spring of 2021 the committee commissioned a structural survey from the "
     "millwright Ren\u00e9 Dufour. His report found the walls sound below the first floor but the "
     "upper courses loose where water had entered for many years. The main shaft, cast at a "
     "foundry in Leeds, was intact. Of the original gearing, the great spur wheel survived "
     "with eleven of its wooden teeth missing; the stone nuts and one pair of millstones were "
     "found buried under rubble on the meal floor."),
    ("Works", "Work began in September 2021 and was carried out in three stages. First, the "
     "roof was stripped, the rafters repaired with oak from the estate, and the slates "
     "relaid. Second, the upper walls were taken down to sound masonry and rebuilt with lime "
     "mortar matching the original. Third, the waterwheel was reconstructed on its old axle "
     "by a team of volunteers working under the millwright's direction. The iron rims were "
     "recast from a surviving fragment and the buckets were made of larch."),
    ("Findings", "During the clearance of the wheel pit the volunteers recovered a quantity of "
     "clay pipe stems, a brass token of 1811 issued by a Whitby grocer, and a ledger page "
     "listing deliveries of barley in the winter of 1868. These finds have been catalogued "
     "and deposited with the county record office under the reference HM/2022/4. The ledger "
     "page shows that the mill was still grinding for eleven farms at that date, and that "
     "payment was often made in kind."),
    ("Costs", "The total cost of the works was 184,600 pounds, of which 120,000 came from the "
     "heritage lottery grant, 38,000 from the district council and the remainder from local "
     "fundraising. Volunteers gave more than 3,200 hours of labour. The committee records its "
     "thanks to all of them, and in particular to Margaret Ellery, who kept the site diary "
     "throughout."),
    ("Recommendations", "The committee recommends that the mill be opened to visitors on the "
     "first Sunday of each month from Easter to October, that the wheel be turned for "
     "demonstration only and not under load until the sluice gate has been replaced, and "
     "that a further survey of the mill race be undertaken before the winter floods."),
]

#: (old, new) replacements that turn the report into the second draft.
MILL_DRAFT2_EDITS = [
    ("a little below the old packhorse bridge", "just below the old packhorse bridge"),
    ("His report found the walls sound", "His report found the walls generally sound"),
    ("on the meal floor.", "on the meal floor. The miller's cottage, which adjoins the mill "
     "on the south side, is in private hands and was not included in the survey."),
    ("184,600 pounds", "186,250 pounds"),
    ("first Sunday of each month", "second Sunday of each month"),
    ("before the winter floods.", "before the winter floods, and that the committee meet "
     "again in March to review the opening arrangements."),
]

MINUTES_TITLE = "Minutes of the Meeting of Eskdale Parish Council"

MINUTES = [
    "Held in the Village Hall on Tuesday 14 April 1998 at 7.30 pm.",
    "Present: Cllr J. Haworth (Chair), Cllr M. Pickering, Cllr S. Ainsley, Cllr D. Wren, "
    "Cllr P. Okafor. Clerk: Mrs A. Lund. Four members of the public attended.",
    "1. Apologies were received from Cllr R. Thwaite.",
    "2. The minutes of the meeting held on 10 March 1998 were approved as a correct record "
    "and signed by the Chair.",
    "3. Matters arising. The clerk reported that the county highways department had agreed "
    "to repair the verge at Low Lane before the end of May. Cllr Pickering asked that the "
    "council write again about the blocked drain outside the school.",
    "4. Planning. Application 98/0231, a single-storey extension at 4 Church Row: no "
    "objection. Application 98/0247, conversion of a barn at Greenhow Farm to a dwelling: "
    "the council objected on the grounds of access and asked the planning authority to "
    "consider the effect on the public footpath that crosses the yard.",
    "5. Playing field. The Chair reported that the new swings had been installed and "
    "inspected. The council resolved to renew the insurance for the playing field at a "
    "premium of 412 pounds.",
    "6. Harwick Mill. Members of the public asked about the future of the mill building. The "
    "Chair said that the council had no powers in the matter but would support any "
    "reasonable proposal to preserve it.",
    "7. Accounts. Payments totalling 1,268.40 pounds were approved, including the clerk's "
    "salary for the quarter and the hire of the hall.",
    "8. Date of next meeting: Tuesday 12 May 1998 at 7.30 pm.",
    "The meeting closed at 9.05 pm.",
]

FLOOD_SUBJECT = "Flood warning for the Esk valley, 28 and 29 October"

FLOOD = [
    "A flood warning is now in force for the river Esk between Lealholm and Ruswarp. Heavy "
    "rain is forecast overnight and river levels are expected to peak early on Friday "
    "morning, close to the levels seen in November 2009.",
    "Residents of Riverside Cottages, Mill Lane and the lower end of Church Row should move "
    "valuables, papers and medicines upstairs this evening, park cars on higher ground, and "
    "keep a torch and a charged phone to hand. Sandbags can be collected from the village "
    "hall from four o'clock; please take no more than six per household.",
    "The footbridge at Harwick will be closed from midnight, and the ford on Low Lane should "
    "not be used by any vehicle. Volunteer wardens will walk the riverside at ten o'clock "
    "and again at six in the morning.",
    "Please pass this message on to neighbours who do not use email, especially anyone who "
    "lives alone.",
]

FLOOD_SIGNATURE = "Eskdale Flood Group\nWarden on call: 01947 000 117"

LETTER_1952 = [
    "Sir,",
    "May I, through your columns, draw attention to the state of the lane that runs from "
    "the station yard to the caf\u00e9 on the green? Since the autumn the surface has broken up "
    "so badly that a pram cannot be pushed along it, and on market days the carriers' carts "
    "have to go the long way round by the church, adding a mile to every journey.",
    "The council tells me that the lane is a private road and no concern of theirs, while "
    "the railway company says it has never owned a yard of it. Meanwhile the ratepayers who "
    "use it every day are left to fill the holes with ashes from their own grates.",
    "Surely a sum of fifty or sixty pounds would put the matter right, and I should be glad "
    "to start a subscription with a guinea (\u00a31 1s) of my own if others will follow.",
    "I am, Sir, yours faithfully,",
    "Edith Marwood, 3 Station Terrace",
]

#: Small edits of a transcription made years later (the copy kept in the zip archive).
LETTER_TRANSCRIPTION_EDITS = [
    ("a pram cannot be pushed along it", "a perambulator cannot be pushed along it"),
    ("adding a mile to every journey", "which adds a mile to every journey"),
    ("Edith Marwood, 3 Station Terrace", "Edith Marwood\n3 Station Terrace, Eskdale"),
]

LIBRARY_INTRO = (
    "The Friends of the Reading Room support the village library with volunteers, "
    "fundraising and a programme of talks. Membership is open to anyone who lives in or "
    "near the parish, and the subscription remains five pounds a year. This report covers "
    "the twelve months to the end of December and will be presented at the annual meeting."
)

LIBRARY_CLOSING = (
    "The committee thanks every volunteer who opened the room, shelved returns or carried "
    "chairs for the talks. New volunteers are always welcome: leave your name at the desk or "
    "speak to any member of the committee. Accounts for the year are available on request "
    "from the treasurer."
)

LIBRARY_2019 = [
    "The room was open on 148 days and recorded 3,912 loans, a small rise on the year "
    "before. The children's corner was repainted in March and a new carpet was laid with "
    "money from the summer fair.",
    "Talks this year covered bee keeping, the history of the railway, and the wartime "
    "diaries of the Marwood family, which drew the largest audience the room has ever held. "
    "The book sale raised 640 pounds.",
    "The committee regrets that the Tuesday evening opening had to end in October because "
    "too few volunteers were available.",
    "Our local history shelf grew by forty titles, most of them given by the family of the "
    "late Harold Wren, whose collection of railway timetables is now kept in the cupboard "
    "behind the desk and may be consulted on request.",
]

LIBRARY_2020 = [
    "The room was closed from late March until August, and after reopening the number of "
    "visitors had to be limited to four at a time. Loans fell to 1,706 over the year.",
    "A doorstep delivery service run by nine volunteers took books to more than forty "
    "households during the closure, and three talks were given by telephone conference, "
    "which was new to most of us.",
    "No book sale could be held, but a grant of 500 pounds from the community fund paid for "
    "a second computer and a large print collection.",
    "The annual meeting itself had to be postponed twice and was finally held in the "
    "churchyard in September, with chairs set two metres apart and a short agenda.",
]

RECIPE_TITLE = "Oat biscuits (from the Women's Institute book, 1961)"

RECIPE = [
    "Ingredients: four ounces of butter, four ounces of sugar, one tablespoon of golden "
    "syrup, five ounces of rolled oats, three ounces of self-raising flour, a pinch of salt.",
    "Warm the butter, sugar and syrup gently in a pan until the butter has melted. Take off "
    "the heat and stir in the oats, flour and salt.",
    "Roll into balls the size of a walnut, set them well apart on a greased tray, and flatten "
    "each with a fork. Bake in a moderate oven for about fifteen minutes, until golden at "
    "the edges. Leave on the tray for five minutes before lifting them on to a wire rack.",
]

BICYCLE_LETTER = [
    "Dear Mr Pickering,",
    "I am writing to ask whether anyone has handed in a bicycle at the post office since "
    "Saturday. It is a green Raleigh with a wicker basket and a bell that does not work, and "
    "it was left against the wall of the chapel during the harvest supper.",
    "My grandson rides it to school in Whitby and is rather lost without it. If it turns up, "
    "I would be very grateful if you could keep it behind the counter until I call.",
    "With thanks and kind regards,",
    "Dorothy Ainsley",
]

HEDGEROW_TITLE = "Hedgerow survey, Low Lane, June"

HEDGEROW = [
    "The hedge on the north side of Low Lane was walked in 30 metre sections from the ford "
    "to the top gate. Woody species were counted in each section.",
    "Hawthorn and blackthorn make up most of the hedge, with hazel, field maple and holly "
    "throughout and a single spindle near the gate. An average of six woody species per "
    "section suggests that the hedge is several centuries old.",
    "Yellowhammers were singing in three sections and a pair of bullfinches was seen near "
    "the ford. Bramble has spread into the gaps left by the 2018 cutting and should be "
    "checked before the autumn.",
]

HOURS_TITLE = "Reading Room: opening hours"

HOURS = [
    "Monday: closed. Tuesday: 10 am to 12 noon. Wednesday: 2 pm to 5 pm. Thursday: closed. "
    "Friday: 10 am to 12 noon and 2 pm to 4 pm. Saturday: 10 am to 1 pm.",
    "Books may be returned through the letter box when the room is closed. Large print "
    "books and talking books can be ordered from the county library and collected here "
    "within a week.",
    "The room is closed on bank holidays and for two weeks over Christmas.",
]

PHOTO_TITLE = "Inventory of photographs, box 7 (glass plates)"

PHOTOS = [
    "7/1 Harvest at Greenhow Farm, four men with a binder, about 1905.",
    "7/2 The station yard with the carrier's cart, about 1910; plate cracked in the corner.",
    "7/3 Sunday school outing on the green, 1912; names on the sleeve in pencil.",
    "7/4 Flood on Mill Lane, water to the window sills, 1930.",
    "7/5 Portrait of an unknown woman in a lace collar, studio of J. Frank, Whitby.",
    "7/6 The bell tower under scaffolding, 1921; see also box 3.",
]

BELL_TITLE = "A short history of the bell tower of St Hild's"

BELL = [
    "The tower of St Hild's was added to the older nave in the fifteenth century and is "
    "built of the same sandstone, brought by cart from the quarry above Greenhow.",
    "It held three bells until 1887, when a fourth was cast in Loughborough to mark the "
    "Queen's jubilee. The frame was renewed in steel in 1921, after the old oak beams were "
    "found to be split, and the bells have been rung full circle ever since.",
    "The ringers' board in the ringing chamber records a peal of 5,040 changes rung in 1936 "
    "in three hours and nine minutes, the only full peal on the bells.",
]
