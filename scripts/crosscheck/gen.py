import json, random, sys
seed=int(sys.argv[1]); random.seed(seed)
words="get set list create delete update issue issues pull request github slack send message file read write web search fetch notebook jupyter task todo c++ a.b x-y url http api data user users json 2fa v2 report sendmessage createissue".split()
def name():
    r=random.random()
    ws=random.sample(words,random.randint(1,3))
    ws=[w.replace('+','p') for w in ws]
    if r<0.5:
        srv=random.choice(["github","slack","my-srv","fs","a.b","x"])
        return "mcp__"+srv.replace('.','_')+"__"+random.choice(["_","__","-"]).join(ws), srv
    if r<0.8:
        return "".join(w[:1].upper()+w[1:] for w in ws), None
    return random.choice(["_","-","."]).join(ws)+random.choice(["","2","V2"]), None
tools={};
for i in range(random.randint(5,60)):
    n,srv=name()
    if n in tools: continue
    t={"name":n,"description":" ".join(random.choices(words+["The","(x)","a-b","c++,","c++x","Issue's"],k=random.randint(0,12)))}
    if srv: t["server"]=srv
    if random.random()<0.3: t["search_hint"]=" ".join(random.choices(words,k=3))
    if random.random()<0.15: t["should_defer"]=False
    if random.random()<0.1: t["always_load"]=True
    tools[n]=t
tl=list(tools.values())
def ismcp(t): return bool(t.get("server")) or t["name"].startswith("mcp__")
key=lambda t:t["name"].encode()
tl=sorted([t for t in tl if not ismcp(t)],key=key)+sorted([t for t in tl if ismcp(t)],key=key)
json.dump({"tools":tl},open(f"cat{seed}.json","w"))
qs=[]
names=[t["name"] for t in tl]
for i in range(40):
    r=random.random()
    if r<0.1: q="select:"+",".join(random.sample(names,min(len(names),2))+[random.choice(["Nope"," x ",names[0].upper()])])
    elif r<0.14: q="select:"+random.choice(names).translate(str.maketrans("_-.","-._"))
    elif r<0.2: q=random.choice(names).upper()
    elif r<0.3: q="mcp__"+random.choice(["github","slack","my-srv","x","zz"])
    elif r<0.36:
        q=" ".join(("+" if random.random()<0.05 else "")+random.choice(words+["the","a","of","please","to"]) for _ in range(random.randint(33,60)))
    else:
        q=" ".join(("+" if random.random()<0.2 else "")+random.choice(words+["+","c++","a.b","createissue","send_message","get-set"]) for _ in range(random.randint(1,4)))
    if random.random()<0.2: qs.append({"query":q,"max_results":random.randint(1,12)})
    else: qs.append(q)
json.dump(qs,open(f"q{seed}.json","w"))
