// bigmont-test: once
/*
 * The tuning table (bignum/tuning.h) against the committed runs it cites:
 * every row's two figures are in the files it names (results/<cpu>/,
 * the first row of that name in core cycles, at that column), and the
 * side the row binds is the faster.  Every choice has a name BIGMONT_TUNE
 * knows and a default; rows name only choices of that list.  So a
 * binding without a committed measurement, or with one that does not
 * show it winning, fails here.
 */
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <cstring>

#include <gtest/gtest.h>

#include "internal.h"
#include "lanes/lanes.h"
#include "lanes/lanes52.h"
#include "radix52/radix52.h"
#include "vertical/vertical.h"
#include "scoped_env.h"
#include "tuning.h"

namespace {

/* The core cycles of row `row` ("variant op", e.g. "adx mul") at column
 * `column` of the table it is in, from results/<dir>/<file>, the least
 * over the file's runs (a file may hold several); -1 if no such figure.  The column headings are the nearest line above starting
 * with "variant", "build", "tuning", "product" or "side" and then "op". */
long figure(const std::string &dir, const std::string &file, const std::string &row, int column,
	    std::string *why)
{
	const std::string path = std::string(BIGMONT_SOURCE_DIR) + "/results/" + dir + "/" + file;
	std::ifstream in(path);
	if (!in) {
		*why = "cannot open " + path;
		return -1;
	}
	std::istringstream want(row);
	std::string want_name, want_op;
	want >> want_name >> want_op;
	std::vector<int> heads;
	std::string line;
	long least = -1;
	while (std::getline(in, line)) {
		std::istringstream ls(line);
		std::string name, op;
		ls >> name >> op;
		if ((name == "variant" || name == "build" || name == "tuning" || name == "product" ||
		     name == "side") &&
		    op == "op") {
			heads.clear();
			int h;
			while (ls >> h)
				heads.push_back(h);
			continue;
		}
		if (name != want_name || op != want_op || line.find("core cycles") == std::string::npos ||
		    line.find('%') != std::string::npos)
			continue;
		std::vector<long> v;
		long x;
		while (ls >> x)
			v.push_back(x);
		for (size_t i = 0; i < heads.size() && i < v.size(); i++)
			if (heads[i] == column && (least < 0 || v[i] < least))
				least = v[i];
	}
	if (least < 0)
		*why = "no '" + row + "' core cycles at " + std::to_string(column) + " in " + path;
	return least;
}

/* The rule big_tune_binds implements, written again with sets: the
 * choices bound on (vendor, family, model): its own rows where the table
 * names it, else those bound on more than half of the named models of
 * its vendor and family, where two or more are named. */
std::set<std::string> expected_bound(const std::string &vendor, unsigned family, unsigned model)
{
	std::set<unsigned> kin;
	std::vector<std::pair<unsigned, std::string> > rows;
#define ROW(VENDOR, fam, mod, CHOICE, dir, wf, wr, col, wc, lf, lr, lc) \
	if (vendor == #VENDOR && family == (fam)) {                     \
		kin.insert(mod);                                        \
		rows.emplace_back(mod, #CHOICE);                        \
	}
	BIG_TUNING_TABLE(ROW)
#undef ROW
	std::set<std::string> bound;
	if (kin.count(model)) {
		for (const auto &r : rows)
			if (r.first == model)
				bound.insert(r.second);
		return bound;
	}
	std::map<std::string, std::set<unsigned> > by;
	for (const auto &r : rows)
		by[r.second].insert(r.first);
	for (const auto &c : by)
		if (kin.size() >= 2 && 2 * c.second.size() > kin.size())
			bound.insert(c.first);
	return bound;
}

enum big_tune_vendor vendor_of(const std::string &v)
{
	return v == "AMD" ? BIG_TUNE_AMD : v == "INTEL" ? BIG_TUNE_INTEL : BIG_TUNE_OTHER;
}

std::set<std::string> choices()
{
	std::set<std::string> s;
#define CHOICE(C) s.insert(#C);
	BIG_TUNING_CHOICES(CHOICE)
#undef CHOICE
	return s;
}

TEST(Tuning, EveryRowIsACommittedMeasurementThatWins)
{
	const std::set<std::string> known = choices();
	int rows = 0;
#define ROW(VENDOR, fam, mod, CHOICE, dir, wf, wr, col, wc, lf, lr, lc)                        \
	{                                                                                      \
		rows++;                                                                        \
		const std::string ctx = std::string(#VENDOR) + " family " + #fam + " model " + \
					#mod + " " + #CHOICE;                                  \
		EXPECT_TRUE(known.count(#CHOICE)) << ctx << ": not a choice";                  \
		std::string why;                                                               \
		const long win = figure(dir, wf, wr, col, &why);                               \
		EXPECT_EQ(win, wc) << ctx << ": " << why;                                      \
		why.clear();                                                                   \
		const long lose = figure(dir, lf, lr, col, &why);                              \
		EXPECT_EQ(lose, lc) << ctx << ": " << why;                                     \
		EXPECT_LT(win, lose) << ctx << ": the bound side is not the faster";           \
	}
	BIG_TUNING_TABLE(ROW)
#undef ROW
	EXPECT_GT(rows, 0);
}

#if BIGMONT_HAVE_ASM && defined(__x86_64__)
/* This CPU's vendor ("AMD", "INTEL" or ""), family and model, as the
 * table names them (big_tune_cpu, the dispatch's own reading). */
std::string this_cpu(unsigned *family, unsigned *model)
{
	const enum big_tune_vendor v = big_tune_cpu(family, model);
	return v == BIG_TUNE_AMD ? "AMD" : v == BIG_TUNE_INTEL ? "INTEL" : "";
}

/* The dispatch binds, on this CPU, what the table says for it (its
 * model's rows, or its family's majority), and the default (0) for every
 * other choice. */
TEST(Tuning, TheDispatchBindsThisCpusRows)
{
	if (std::getenv("BIGMONT_TUNE") != nullptr)
		GTEST_SKIP() << "BIGMONT_TUNE overrides the table";
	unsigned family, model;
	const std::string vendor = this_cpu(&family, &model);
	const std::set<std::string> bound = expected_bound(vendor, family, model);
	const std::string ctx = vendor + " family " + std::to_string(family) + " model " +
				std::to_string(model);
	EXPECT_EQ(big_mont_mul16_karatsuba(), (int)bound.count("MONT_MUL16_KARATSUBA")) << ctx;
	EXPECT_EQ(big_r52_kernels20_intel(), (int)bound.count("R52_KERNELS20_INTEL")) << ctx;
	EXPECT_EQ(big_r52_pow_sqr30_dedicated(), (int)bound.count("R52_POW_SQR30_DEDICATED")) << ctx;
	EXPECT_EQ(big_r52_mul_pairs_wanted(10), (int)bound.count("R52_MUL_PAIRS10")) << ctx;
	EXPECT_EQ(big_r52_mul_pairs_wanted(30), (int)bound.count("R52_MUL_PAIRS30")) << ctx;
	EXPECT_EQ(big_r52_mul_pairs_wanted(40), (int)bound.count("R52_MUL_PAIRS40")) << ctx;
	EXPECT_EQ(big_lanes19_asm(), (int)bound.count("LANES19_ASM")) << ctx;
	EXPECT_EQ(big_lanes37_asm(), (int)bound.count("LANES37_ASM")) << ctx;
	EXPECT_EQ(big_lanes55_asm(), (int)bound.count("LANES55_ASM")) << ctx;
	EXPECT_EQ(big_lanes74_asm(), (int)bound.count("LANES74_ASM")) << ctx;
#if BIG_LANES52_HAVE_IFMA_BUILD
	EXPECT_EQ(big_lanes52_sqr20_asm(), (int)bound.count("LANES52_SQR20_ASM")) << ctx;
#endif
	EXPECT_EQ(big_crt_paired8_tuned(), (int)bound.count("CRT_PAIRED8")) << ctx;
	EXPECT_EQ(big_vert_zmm_tuned(), (int)bound.count("VERTICAL_ZMM")) << ctx;
	for (int digits : { 9, 11, 20, 25, 35 })
		EXPECT_EQ(big_r52_mul_pairs_wanted(digits), 0) << ctx << ", " << digits << " digits";
}
#endif

/* The count behind it: a majority of two or more named models; a tie, a
 * single model or none binds nothing. */
TEST(Tuning, FamilyMajorityNeedsTwoModelsAndNoTie)
{
	EXPECT_EQ(big_tune_majority(0, 0), 0);
	EXPECT_EQ(big_tune_majority(1, 1), 0);
	EXPECT_EQ(big_tune_majority(1, 2), 0);
	EXPECT_EQ(big_tune_majority(2, 2), 1);
	EXPECT_EQ(big_tune_majority(1, 3), 0);
	EXPECT_EQ(big_tune_majority(2, 3), 1);
	EXPECT_EQ(big_tune_majority(2, 4), 0);
	EXPECT_EQ(big_tune_majority(3, 4), 1);
}

/* A model the table does not name takes what a majority of the named
 * models of its vendor and family bind, two or more named; a named model
 * its own rows only; a family with fewer named models, nothing. */
TEST(Tuning, UnnamedModelsTakeTheirFamilysMajority)
{
	for (const char *vendor : { "AMD", "INTEL" })
		for (unsigned family : { 6u, 25u, 26u })
			for (unsigned model = 0; model < 256; model++) {
				const std::set<std::string> want = expected_bound(vendor, family, model);
				for (const std::string &c : choices())
					EXPECT_EQ(big_tune_binds(vendor_of(vendor), family, model, c.c_str(),
								 (int)c.size()),
						  (int)want.count(c))
						<< vendor << " family " << family << " model " << model << " "
						<< c;
			}
	/* The figures behind the rule, as the table stands: an Intel server
	 * core it does not name (Sapphire Rapids, model 143) takes the pair
	 * kernels and the intel tuning that won on models 106, 207 and 167
	 * (the pairs at 40 digits on two of them), not the zmm vertical layer
	 * that won on 207 alone; model 106 keeps its own rows (no pairs at 40,
	 * which lost there); a vendor or family with fewer than two named
	 * models keeps every default. */
	const auto binds = [](enum big_tune_vendor v, unsigned f, unsigned m, const char *c) {
		return big_tune_binds(v, f, m, c, (int)std::strlen(c));
	};
	EXPECT_EQ(binds(BIG_TUNE_INTEL, 6, 143, "R52_MUL_PAIRS30"), 1);
	EXPECT_EQ(binds(BIG_TUNE_INTEL, 6, 143, "R52_MUL_PAIRS40"), 1);
	EXPECT_EQ(binds(BIG_TUNE_INTEL, 6, 143, "R52_KERNELS20_INTEL"), 1);
	EXPECT_EQ(binds(BIG_TUNE_INTEL, 6, 143, "VERTICAL_ZMM"), 0);
	EXPECT_EQ(binds(BIG_TUNE_INTEL, 6, 106, "R52_MUL_PAIRS40"), 0);
	EXPECT_EQ(binds(BIG_TUNE_INTEL, 6, 207, "VERTICAL_ZMM"), 1);
	EXPECT_EQ(binds(BIG_TUNE_AMD, 26, 17, "MONT_MUL16_KARATSUBA"), 0);
	/* AMD family 25 names model 1 alone: Zen 4 (model 17) keeps the
	 * defaults, model 1 its rows. */
	EXPECT_EQ(binds(BIG_TUNE_AMD, 25, 17, "MONT_MUL16_KARATSUBA"), 0);
	EXPECT_EQ(binds(BIG_TUNE_AMD, 25, 1, "MONT_MUL16_KARATSUBA"), 1);
	EXPECT_EQ(binds(BIG_TUNE_OTHER, 6, 143, "R52_MUL_PAIRS30"), 0);
	EXPECT_EQ(binds(BIG_TUNE_INTEL, 6, 143, "NO_SUCH_CHOICE"), 0);
}

/* The reader itself: a figure that is not in a file is not found. */
TEST(Tuning, FigureReaderRefusesWhatIsNotThere)
{
	std::string why;
	EXPECT_EQ(figure("intel-r-xeon-r-processor-family6-model207", "2026-11-27-1838-kernels.txt",
			 "adx mul", 17, &why),
		  -1);
	EXPECT_NE(why.find("no 'adx mul'"), std::string::npos) << why;
	why.clear();
	EXPECT_EQ(figure("no-such-cpu", "none.txt", "adx mul", 16, &why), -1);
	EXPECT_NE(why.find("cannot open"), std::string::npos) << why;
	EXPECT_EQ(figure("intel-r-xeon-r-processor-family6-model207", "2026-11-27-1838-kernels.txt",
			 "adx mul", 16, &why),
		  713);
	/* the least of several runs: run 1's 771, run 6's 760 */
	EXPECT_EQ(figure("amd-epyc-family25-model1", "2026-11-28-2102-kernels.txt", "kara16 mul", 16,
			 &why),
		  760);
}

/* BIGMONT_TUNE's spelling: every choice by its name in either case, =0
 * or =1, empty items ignored as the dispatch ignores them; anything else
 * names the item and lists the choices. */
TEST(Tuning, TuneEnvironmentSpellingIsChecked)
{
	bt::ScopedEnv tune("BIGMONT_TUNE", nullptr);
	char msg[512];
	std::vector<std::string> ok = { "", "vertical=1", "Select_VL=0,,crt_paired8=1," };
	std::string every;
#define EVERY_CHOICE(CHOICE)                                                   \
	ok.push_back(std::string(#CHOICE) + "=0");                             \
	every += std::string(#CHOICE) + "=1,";
	BIG_TUNING_CHOICES(EVERY_CHOICE)
#undef EVERY_CHOICE
	for (const std::string &value : ok) {
		tune.set(value.c_str());
		EXPECT_EQ(big_tune_env_check(msg, sizeof msg), 0) << "'" << value << "': " << msg;
	}
	tune.set(nullptr);
	EXPECT_EQ(big_tune_env_check(msg, sizeof msg), 0);
	const struct {
		const char *value, *named;
	} bad[] = { { "foo", "'foo' is not" },
		    { "vertical=1,select_vl=2", "'select_vl=2' is not" },
		    { "vertical", "'vertical' is not" },
		    { "vertical=10", "'vertical=10' is not" },
		    { "verticalx=1", "'verticalx=1' is not" },
		    { "=1", "'=1' is not" } };
	for (const auto &b : bad) {
		tune.set(b.value);
		msg[0] = '\0';
		EXPECT_EQ(big_tune_env_check(msg, sizeof msg), -1) << b.value;
		const std::string m = msg;
		EXPECT_EQ(m.find(b.named), 0u) << m;
		EXPECT_NE(m.find("mont_mul16_karatsuba, "), std::string::npos) << m;
		EXPECT_NE(m.find(", vertical_zmm"), std::string::npos) << m;
		/* A short buffer is cut, still terminated. */
		char tiny[8];
		EXPECT_EQ(big_tune_env_check(tiny, sizeof tiny), -1);
		EXPECT_EQ(std::strlen(tiny), sizeof tiny - 1);
	}
	const std::string too_long = every + every;
	tune.set(too_long.c_str());
	EXPECT_EQ(big_tune_env_check(msg, sizeof msg), -1);
	EXPECT_NE(std::string(msg).find("longer than 255 characters"), std::string::npos) << msg;
}

} // namespace
